import Foundation
import ParlanceContext
import ParlanceText

/// The shortcut phrases of a context in one language, and how an utterance matches them:
/// tolerantly (case, accents, spacing, small slips: one edit in phrases of up to 12 letters,
/// two in longer ones), after wake words and courtesies (the language's `<prefix>` and
/// `<suffix>` rules). A phrase said exactly wins; an utterance near two or more phrases is
/// not guessed: it ends in a disambiguation between them.
struct ShortcutMatcher: Sendable {
    struct Entry: Sendable {
        var shortcut: Shortcut
        var key: [Unicode.Scalar]
    }

    let entries: [Entry]
    let prefix: LanguageGrammar.Compiled
    let suffix: LanguageGrammar.Compiled

    init(shortcuts: [Shortcut], grammar: LanguageGrammar) throws {
        entries = shortcuts.compactMap { s in
            guard let phrase = s.phrase, s.language == nil || s.language == grammar.language else { return nil }
            let key = LanguageGrammar.unitKeys(grammar.tokenizer.tokenize(phrase)).joined(separator: " ")
            return key.isEmpty ? nil : Entry(shortcut: s, key: Array(key.unicodeScalars))
        }
        prefix = grammar.prefixRule
        suffix = grammar.suffixRule
    }

    /// Edits a phrase of this many letters may differ by.
    static func tolerance(_ length: Int) -> Int { length < 5 ? 0 : length <= 12 ? 1 : 2 }

    /// One shortcut said: (shortcut, score from 0 to 1, exact).
    struct Match {
        var shortcut: Shortcut
        var score: Double
        var exact: Bool
    }

    /// The shortcuts the utterance says, best first: one exact match alone, or every phrase
    /// within tolerance.
    func matches(_ units: [MatchUnit]) -> [Match] {
        guard !entries.isEmpty, !units.isEmpty else { return [] }
        let oracle = SlotOracle(
            units: units, entities: [:], vocabularies: [:], binding: SlotBinding(), app: nil)
        let prefixMatcher = AutomatonMatcher(automaton: prefix.shared, oracle: oracle)
        let suffixMatcher = AutomatonMatcher(automaton: suffix.shared, oracle: oracle)
        let starts = (0...min(4, units.count - 1)).filter {
            prefixMatcher.accepts(start: prefix.start, from: 0, to: $0)
        }
        var best: [String: Match] = [:]
        for start in starts {
            for end in stride(from: units.count, through: max(start + 1, units.count - 5), by: -1)
            where suffixMatcher.accepts(start: suffix.start, from: end, to: units.count) {
                let said = Array(units[start..<end].map(\.key).joined(separator: " ").unicodeScalars)
                for entry in entries {
                    let length = max(said.count, entry.key.count)
                    let allowed = Self.tolerance(entry.key.count)
                    guard abs(said.count - entry.key.count) <= allowed else { continue }
                    let distance = said == entry.key ? 0 : Self.distance(said, entry.key, limit: allowed)
                    guard distance <= allowed else { continue }
                    let match = Match(shortcut: entry.shortcut, score: 1 - Double(distance) / Double(length), exact: distance == 0)
                    if let existing = best[entry.shortcut.id], existing.score >= match.score { continue }
                    best[entry.shortcut.id] = match
                }
            }
        }
        let ranked = best.values.sorted { $0.score != $1.score ? $0.score > $1.score : $0.shortcut.id < $1.shortcut.id }
        let exact = ranked.filter(\.exact)
        return exact.count == 1 ? exact : ranked
    }

    /// Optimal string alignment distance, or `limit + 1` as soon as it must exceed `limit`.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in boundedDistance(a, b, limit: limit) } }
    }
}

extension ParserContext {
    /// "What can I do with this app?": its intents' example phrases (`AppDefinition.examples`),
    /// then its shortcuts for the language ("shortcuts"): the user's phrases, and for a
    /// shortcut without one, its suggested phrases ("suggested for <id>").
    public func examples(app name: String, language: String) -> [(intent: String, phrases: [String])] {
        guard let app = apps.first(where: { $0.name == name }) else { return [] }
        var result = app.examples(language: language)
        let mine = shortcuts.filter { $0.app == app.name && ($0.language == nil || $0.language == language) }
        let said = mine.compactMap(\.phrase)
        if !said.isEmpty { result.append(("shortcuts", said)) }
        for shortcut in mine where shortcut.phrase == nil {
            let suggested = suggestedPhrases(for: shortcut, language: language)
            if !suggested.isEmpty { result.append(("suggested for \(shortcut.id)", suggested)) }
        }
        return result
    }

    /// Phrases to offer for a shortcut (one without a phrase, typically), in a language:
    /// the intent's example phrases that have a slot for each of the shortcut's values, filled
    /// with them (the app's mention kept), then the title of its shortcut type; none that
    /// another shortcut's phrase already is (or nearly is).
    public func suggestedPhrases(for shortcut: Shortcut, language: String) -> [String] {
        guard let app = apps.first(where: { $0.name == shortcut.app }),
            let intent = app.customIntents.first(where: { $0.name == shortcut.intent })
        else { return [] }
        func fill(_ text: String) -> String? {
            var result = text
            for slot in CustomIntent.slots(in: text) {
                guard let value = shortcut.parameters[slot], let p = intent.parameter(slot) else { return nil }
                let said = p.type == .enum ? p.caseName(value.display, language: language) : value.display
                result = result.replacingOccurrences(of: "{\(slot)}", with: said)
            }
            return result.contains(where: { "[]()|<>".contains($0) }) ? nil : result
        }
        let fixed = Set(shortcut.parameters.keys)
        // Only phrases that say every fixed value: a suggestion must ask for the shortcut itself.
        let phrases = (intent.phrases[language] ?? []).filter { Set(CustomIntent.slots(in: $0)) == fixed }
        var result: [String] = []
        let titles = intent.shortcutTypes.filter { Set($0.parameters) == fixed }.compactMap { $0.title[language].flatMap(fill) }
        for text in phrases.compactMap(fill) + titles {
            let key = TextNormalizer.key(text)
            let taken = shortcuts.contains { other in
                guard let phrase = other.phrase, other.id != shortcut.id else { return false }
                let otherKey = TextNormalizer.key(phrase)
                return ShortcutMatcher.distance(Array(key.unicodeScalars), Array(otherKey.unicodeScalars), limit: 2)
                    <= ShortcutMatcher.tolerance(otherKey.count)
            }
            if !taken, !result.contains(text) { result.append(text) }
        }
        return result
    }
}

extension IntentParser {
    /// Example requests for an app's catalogue intents in a language ("What can I say to
    /// MonkeyNotes?"): the language's `examples.json` (three per catalogue intent, `{app}` standing
    /// for the app's name), for the intents the app handles, in catalogue order; at most
    /// `perIntent` per intent. Empty for an app of custom intents only.
    public func catalogueExamples(app name: String, language: String, perIntent: Int = 3) throws -> [(intent: String, phrases: [String])] {
        guard let app = context.apps.first(where: { $0.name == name }), perIntent > 0 else { return [] }
        let intents = catalogue.intents.filter { app.handles($0.name) }
        guard !intents.isEmpty else { return [] }
        let examples = try LanguageGrammar.examples(language: language)
        return intents.compactMap { spec in
            let phrases = (examples[spec.name] ?? []).prefix(perIntent).map { $0.replacingOccurrences(of: "{app}", with: app.name) }
            return phrases.isEmpty ? nil : (spec.name, Array(phrases))
        }
    }
}
