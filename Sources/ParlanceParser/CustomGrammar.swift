import Foundation
import ParlanceText

/// The custom intents of a context (`CustomIntent`), compiled for one language: each example
/// phrase of the language becomes a template, as if written in a `.sentences` file.
///
/// - The app's name and the words that go with it are taken out of the phrase the way the
///   parser takes a mention out of an utterance (the language's `<mention>` rule): "Order
///   {quantity} {soup} soups with Soup Chef" is matched as "order {quantity} {soup} soups",
///   so the app may be named anywhere, or not at all.
/// - A phrase that starts with the app's name ("Soup Chef {quantity} {soup} soups") is a
///   verbified template; so is every phrase with its first word (the verb) left out, used
///   only when the app's name leads the utterance ("Soup Chef two tomato soups").
/// - Slots take their parameter's type: an enum its cases' names in the language (and their
///   plurals, `NamePlurals`), integers
///   and decimals a number, strings a few words, objects the names of their vocabulary type.
/// - A number or enum slot of a parameter that is not required is optional ("order
///   {quantity} {soup} soups" also reads "order tomato soups").
/// - The intent's title in the language ("Order soup"), when it has no slots, is one more
///   phrase: the request said without its values.
/// - Phrases may use the template syntax (`[a|one] {soup} soup`, see `Grammar/README.md`).
final class CustomGrammar: Sendable {
    /// One custom intent of one app.
    struct Entry: Sendable {
        let app: AppDefinition
        let intent: CustomIntent
        /// The name templates and matches use for it: "custom:<index>".
        let key: String
    }

    let entries: [Entry]
    let templates: [SentenceFile.Template]
    let main: LanguageGrammar.Compiled
    let verbified: LanguageGrammar.Compiled
    /// Enum lexicons by slot parameter ("custom:0.soup").
    let enumerations: [String: PhraseLexicon]

    var isEmpty: Bool { templates.isEmpty }

    /// The entry of a template intent key, if it is a custom one.
    func entry(_ key: String) -> Entry? {
        guard key.hasPrefix("custom:"), let index = Int(key.dropFirst(7)), entries.indices.contains(index) else { return nil }
        return entries[index]
    }

    /// The parameter name of a slot parameter ("custom:0.soup" → "soup").
    static func parameterName(_ slotParameter: String) -> String {
        slotParameter.firstIndex(of: ".").map { String(slotParameter[slotParameter.index(after: $0)...]) } ?? slotParameter
    }

    /// - Parameter mentionExtent: the units a mention of an app covers with the words that go
    ///   with it (the parser's own, so phrases and utterances lose the same words).
    init(context: ParserContext, grammar: LanguageGrammar, mentionExtent: (IntentParser.Mention, [MatchUnit]) -> Range<Int>) throws {
        let language = grammar.language
        var entries: [Entry] = []
        var templates: [SentenceFile.Template] = []
        var enumerations: [String: PhraseLexicon] = [:]
        var slotsByIntent: [String: [String: Automaton.Slot]] = [:]
        func keys(_ text: String) -> [String] { LanguageGrammar.unitKeys(grammar.tokenizer.tokenize(text)) }

        for app in context.apps {
            let names = Set(app.allNames.map { IntentParser.compact(TextNormalizer.key($0)) })
            for intent in app.customIntents {
                guard var phrases = intent.phrases[language], !phrases.isEmpty else { continue }
                // The title ("Order soup") names the request without its values.
                if let title = intent.title[language], CustomIntent.slots(in: title).isEmpty, !title.contains(where: { "[]()|<>{}".contains($0) }) {
                    phrases.append(title)
                }
                let key = "custom:\(entries.count)"
                entries.append(Entry(app: app, intent: intent, key: key))
                var slots: [String: Automaton.Slot] = [:]
                for p in intent.parameters {
                    let slotName = "\(key).\(p.name)"
                    switch p.type {
                    case .enum, .boolean:
                        var lexicon = PhraseLexicon()
                        for c in p.cases {
                            for name in c.names[language] ?? [] { lexicon.insert(keys(name), value: c.id) }
                        }
                        // Plurals after every name, so that a plural never hides a name.
                        for c in p.cases {
                            for name in c.names[language] ?? [] {
                                for plural in NamePlurals.variants(name, language: language) { lexicon.insert(keys(plural), value: c.id) }
                            }
                        }
                        if lexicon.longest > 0 {
                            enumerations[slotName] = lexicon
                            slots[p.name] = Automaton.Slot(parameter: slotName, kind: .enumeration)
                        }
                    case .integer, .decimal:
                        slots[p.name] = Automaton.Slot(parameter: slotName, kind: .entity(["number"]))
                    case .string:
                        slots[p.name] = Automaton.Slot(parameter: slotName, kind: .free(maxLength: 8, list: p.list, vocabulary: nil, perToken: MatchScores.stringToken, names: false))
                    case .object:
                        slots[p.name] = Automaton.Slot(parameter: slotName, kind: .free(maxLength: 8, list: p.list, vocabulary: p.vocabulary, perToken: MatchScores.stringToken, names: false))
                    }
                }
                slotsByIntent[key] = slots
                var seen: [(TemplatePattern, Bool)] = []
                for (n, phrase) in phrases.enumerated() {
                    let source = n < intent.phrases[language]!.count ? "\(app.name) \(intent.name) phrases.\(language)[\(n)]" : "\(app.name) \(intent.name) title.\(language)"
                    let pattern: TemplatePattern
                    do { pattern = try TemplateExpressionParser.parse(phrase, file: source, line: 1) } catch {
                        throw GrammarError.file(source, (error as? TemplateSyntaxError)?.message ?? "\(error)")
                    }
                    for slot in CustomIntent.slots(in: phrase) where slots[slot] == nil {
                        let p = intent.parameter(slot)
                        let why = p?.type == .boolean || p?.type == .enum ? "its cases have no \(language) names" : "it is not a parameter"
                        throw GrammarError.file(source, "{\(slot)} cannot be matched: \(why)")
                    }
                    for (said, verbified) in Self.readings(pattern, appNames: names, app: app, keys: keys, mentionExtent: mentionExtent) {
                        // A number or an enum the intent does not require may go unsaid ("order
                        // tomato soups", "order a latte" for "order a {size} {drink}").
                        let items = said.map { item -> TemplatePattern in
                            guard case .slot(let name) = item, let p = intent.parameter(name), !p.required, [.integer, .decimal, .enum].contains(p.type) else { return item }
                            return .optional(item)
                        }
                        guard items.contains(where: { if case .optional = $0 { false } else { true } }) else { continue }
                        let pattern = items.count == 1 ? items[0] : .sequence(items)
                        guard !seen.contains(where: { $0.0 == pattern && $0.1 == verbified }) else { continue }
                        seen.append((pattern, verbified))
                        templates.append(SentenceFile.Template(intent: key, pattern: pattern, fixed: [], verbified: verbified, source: source))
                    }
                }
            }
        }
        self.entries = entries
        self.templates = templates
        self.enumerations = enumerations
        var builder = grammar.makeBuilder()
        let compile = { (verbified: Bool, builder: inout AutomatonBuilder) throws -> LanguageGrammar.Compiled in
            try LanguageGrammar.compile(templates, verbified: verbified, language: language, builder: &builder) { template in
                let slots = slotsByIntent[template.intent] ?? [:]
                return { name in slots[name] }
            }
        }
        self.main = try compile(false, &builder)
        self.verbified = try compile(true, &builder)
    }

    /// The templates a phrase gives, as top-level items, each with whether it is verbified:
    /// the phrase without the app's mention, and without its verb for the verbified use.
    static func readings(
        _ pattern: TemplatePattern, appNames: Set<String>, app: AppDefinition, keys: (String) -> [String],
        mentionExtent: (IntentParser.Mention, [MatchUnit]) -> Range<Int>
    ) -> [([TemplatePattern], Bool)] {
        var items: [TemplatePattern]
        if case .sequence(let list) = pattern { items = list } else { items = [pattern] }
        // Units as the parser would see them; anything but a plain word is one opaque unit.
        var units: [MatchUnit] = []
        var owner: [Int] = []
        for (i, item) in items.enumerated() {
            let itemKeys: [String]
            if case .word(let word) = item { itemKeys = keys(word) } else { itemKeys = ["\u{1}"] }
            for key in itemKeys {
                let token = Token(text: key, normalized: key, key: key, kind: .word, span: Span(0, 0))
                units.append(MatchUnit(key: key, token: token, commaBefore: false))
                owner.append(i)
            }
        }
        var leading = false
        search: for start in units.indices {
            for length in stride(from: min(4, units.count - start), through: 1, by: -1) {
                let range = start..<(start + length)
                guard appNames.contains(IntentParser.compact(units[range].map(\.key).joined())) else { continue }
                let extent = mentionExtent(IntentParser.Mention(app: app, range: range, said: app.name), units)
                let removed = Set(extent.map { owner[$0] })
                leading = extent.lowerBound == 0
                items = items.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
                break search
            }
        }
        guard !items.isEmpty else { return [] }
        var result: [([TemplatePattern], Bool)] = [(items, leading)]
        // The app's name as the verb: the phrase without its first word, when a slot follows.
        if !leading, items.count >= 2, case .word = items[0], items.dropFirst().contains(where: { if case .slot = $0 { true } else { false } }) {
            result.append((Array(items.dropFirst()), true))
        }
        return result
    }
}
