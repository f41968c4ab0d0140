import Foundation
import ParlanceContext
import ParlanceICU
import ParlanceText

/// Turns an utterance into an intent (domain, intent, app, parameters), per the intent
/// catalogue, using the apps and vocabularies of a context.
///
/// ```swift
/// let parser = try IntentParser(context: .demo)
/// let result = try parser.parse("MonkeyChat Bobo send more bananas", locale: ParlanceLocale("en-US"))
/// result.intent?.name                          // "sendMessage"
/// result.intent?.values("recipients").first?.raw  // "Bobo"
/// ```
///
/// Build one parser per context and share it: it is `Sendable`, and `parse` may be called
/// from many tasks at once. Each language's grammar is compiled on first use.
public final class IntentParser: UtteranceParser {
    /// The context the parser was built with: its apps, vocabularies, shortcuts and donations.
    public let context: ParserContext
    let catalogue: IntentCatalogue
    /// The context's apps handling each intent, in the context's order
    /// (`ParserContext.apps(handling:)`, worked out once).
    private let appsHandling: [String: [AppDefinition]]
    let analyzer: TextAnalyzer
    /// What each language needs whatever the vocabulary holds, built on first use.
    private let bases: Locked<[String: LanguageBase]>
    /// Everything compiled for each language against the store's latest version (one cache).
    private let languages = Locked<[String: LanguageCache]>([:])
    /// The vocabularies the parser knows names from: the resolver's store when the two are
    /// built together (`ResolvingParser`), so that every update reaches both. Update user
    /// vocabulary through it; the next parse sees the change.
    public let vocabulary: VocabularyStore
    /// Each app with its names' compact keys and their lengths in characters.
    private let appKeys: AppNameKeys
    private let unavailableApps: UnavailableAppFinder
    /// With a context of no apps: each well-known service as an app of its domains' intents,
    /// so that "Venmo Paul ten dollars" reads as a payment (with app null).
    private let serviceApps: [String: AppDefinition]
    /// The user's donations (see `DonationLog`): they raise the prior of the intents and apps
    /// the user uses often and recently, which decides near-ties. Record and delete through it.
    public let donations: DonationLog
    /// Matcher steps one parse may take (`WorkMeter`); over it, `parse` throws `TooSlow`.
    public let workBudget: Int

    /// A parser for a context. Nothing is compiled here: each language's grammar is built
    /// on first use.
    ///
    /// - Parameters:
    ///   - context: the apps, vocabularies, shortcuts and donations to parse against.
    ///   - analyzer: the text layer that tokenizes utterances and reads their typed values.
    ///   - vocabulary: the store to know names from (shared with a `Resolver`); by default a
    ///     new one holding the context's vocabularies.
    ///   - donations: the log to read donations from (shared with a `Resolver`); by
    ///     default a new one holding the context's `donations`.
    ///   - workBudget: the matcher steps one parse may take (`defaultWorkBudget`).
    public convenience init(
        context: ParserContext, analyzer: TextAnalyzer = .shared, vocabulary: VocabularyStore? = nil, donations: DonationLog? = nil,
        workBudget: Int = IntentParser.defaultWorkBudget
    ) throws {
        try self.init(
            context: context, analyzer: analyzer, vocabulary: vocabulary, donations: donations, workBudget: workBudget,
            bases: Locked([:]))
    }

    /// A parser for another user of the same context: the user's own vocabulary store and
    /// donations, and the grammars, shortcuts and trained tiers `other` has compiled (or will),
    /// shared rather than compiled again. What each user's vocabulary makes is the user's own.
    public convenience init(sharingGrammarsOf other: IntentParser, vocabulary: VocabularyStore, donations: DonationLog) throws {
        try self.init(
            context: other.context, analyzer: other.analyzer, vocabulary: vocabulary, donations: donations, workBudget: other.workBudget,
            bases: other.bases)
    }

    private init(
        context: ParserContext, analyzer: TextAnalyzer, vocabulary: VocabularyStore?, donations: DonationLog?, workBudget: Int,
        bases: Locked<[String: LanguageBase]>
    ) throws {
        self.bases = bases
        self.context = context
        self.vocabulary = vocabulary ?? VocabularyStore(context: context)
        self.workBudget = workBudget
        self.catalogue = .standard
        var appsHandling: [String: [AppDefinition]] = [:]
        for app in context.apps {
            var names = Set<String>()
            for intent in app.intents where names.insert(intent.name).inserted { appsHandling[intent.name, default: []].append(app) }
        }
        self.appsHandling = appsHandling
        self.analyzer = analyzer
        self.donations = donations ?? DonationLog(context.donations)
        self.unavailableApps = UnavailableAppFinder(context: context)
        self.serviceApps = context.listsApps ? [:] : ServiceDirectory.standard.apps(catalogue: .standard)
        self.appKeys = AppNameKeys(context.apps)
    }

    /// The words of `text` between whitespace (`split(whereSeparator: \.isWhitespace).count`),
    /// counted over the bytes when the text is ASCII (nearly always), with no substrings made.
    static func spacedWords(_ text: String) -> Int {
        var text = text
        let ascii: Int? = text.withUTF8 { bytes in
            var words = 0
            var inWord = false
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                // ASCII's White_Space: tab, line feed, vertical tab, form feed, carriage return, space.
                let space = byte == 0x20 || (0x09...0x0D).contains(byte)
                if !space, !inWord { words += 1 }
                inWord = !space
            }
            return words
        }
        return ascii ?? scalarWords(text) ?? text.split(whereSeparator: \.isWhitespace).count
    }

    /// `spacedWords` read by scalars, for a text whose characters split at its ASCII spaces
    /// exactly: no other white space, and no scalar of U+0300 or more (marks that join a space,
    /// prepended letters) next to one. Nil for any other text.
    private static func scalarWords(_ text: String) -> Int? {
        var words = 0
        var inWord = false
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            let space = scalar.isASCII && (scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value))
            if !scalar.isASCII {
                if scalar.properties.isWhitespace { return nil }
                if scalar.value >= 0x300, inWord == false, previous != nil { return nil }
            }
            if space, let previous, previous.value >= 0x300 { return nil }
            if !space, !inWord { words += 1 }
            inWord = !space
            previous = scalar
        }
        return words
    }

    /// Utterances longer than this many words get no intent (reason "too long"): spoken
    /// requests are short, and matching cost grows with length.
    public static let maximumWords = 200

    /// The languages with an intent grammar.
    public static var supportedLanguages: [String] { LanguageGrammar.availableLanguages }

    /// Parses one utterance. `referenceTime` resolves relative dates (default: now).
    ///
    /// The utterance is analyzed once (`Utterance`), then read by the stages in order
    /// (`IntentParser.stages`): the first that decides gives the result.
    public func parse(_ text: String, locale: ParlanceLocale, referenceTime: ReferenceTime = .now()) throws -> ParseResult {
        let language = try resources(for: locale.language)
        // The word cap before the text layer, whose cost grows with the words (a rough count:
        // words between spaces; the exact one, in units, follows the analysis).
        let spaced = IntentParser.spacedWords(text)
        guard spaced <= IntentParser.maximumWords else {
            return ParseResult(
                intent: nil, alternatives: [],
                reason: "utterance too long: \(spaced) words, the parser reads at most \(IntentParser.maximumWords)",
                explanation: Explanation(decidedBy: "none", source: nil, score: nil, appMention: nil, notes: []))
        }
        let analysis = try analyzer.tokensAndEntities(text, locale: locale, referenceTime: referenceTime)
        let units = IntentParser.units(analysis.tokens, titles: language.grammar.titleWords)
        guard !units.isEmpty, units.count <= IntentParser.maximumWords else {
            let reason =
                units.isEmpty
                ? "nothing to parse: the utterance has no words"
                : "utterance too long: \(units.count) words, the parser reads at most \(IntentParser.maximumWords)"
            return ParseResult(
                intent: nil, alternatives: [], reason: reason,
                explanation: Explanation(decidedBy: "none", source: nil, score: nil, appMention: nil, notes: []))
        }
        var notes: [String] = []
        var lookalikes: [String] = []
        var inNames: [Range<Int>] = []
        let mentions = findMentions(units, notes: &notes, lookalikes: &lookalikes, vocabularies: language.vocabularies, inNames: &inNames)
        var utterance = Utterance(
            text: text, locale: locale, referenceTime: referenceTime, language: language, units: units, scalars: Array(text.unicodeScalars),
            entities: analysis.entities, mentions: mentions, lookalikes: lookalikes, notes: notes, appInNames: !inNames.isEmpty)
        let meter = WorkMeter(limit: workBudget)
        let result = try WorkMeter.$current.withValue(meter) { () throws -> ParseResult in
            // What every decided result goes through, whichever stage decided it.
            func finished(_ result: ParseResult) -> ParseResult {
                outsideChecked(refined(relabeled(result, language), utterance), utterance)
            }
            var state = ParseState()
            for stage in Self.stages {
                if let result = try stage.run(&utterance, &state, parser: self) { return finished(result) }
            }
            return finished(
                decide(state.candidates, notes: utterance.notes, mentions: utterance.mentions, time: referenceTime.secondsSince1970))
        }
        if meter.exceeded { throw TooSlow(budget: workBudget) }
        return result
    }

    /// The context's apps that handle the intent of this name, in the context's order
    /// (`ParserContext.apps(handling:)`, by a dictionary).
    func apps(handling intent: String) -> [AppDefinition] { appsHandling[intent] ?? [] }

    /// The units of each free-text parameter of a frame (text, or a string no vocabulary knows).
    func freeTextRanges(_ frame: IntentFrame, _ spec: IntentSpec, _ units: [MatchUnit]) -> [Range<Int>] {
        frame.parameters.compactMap { p -> Range<Int>? in
            guard let span = p.span, let own = spec.parameter(p.name), own.type == .text || (own.type == .string && own.vocabulary == nil)
            else { return nil }
            return unitRange(of: span, in: units)
        }
    }

    /// A reading of a domain whose request says what puts it outside that domain (`lexicon.json`
    /// "outside": "add Jacob Hoggard to my get-going playlist" is no list of tasks): no intent.
    /// Said inside a value of free text (a message, a note's content, a task's title), the words
    /// are what is written, not what is asked for, and do not count; said in the name of one of
    /// the user's items (a list's name), they do.
    func outsideChecked(_ result: ParseResult, _ u: Utterance) -> ParseResult {
        guard let frame = result.intent, let words = u.grammar.outside[frame.domain], let spec = catalogue.intent(frame.name)
        else { return result }
        let free = freeTextRanges(frame, spec, u.units)
        let keys = u.keys
        // A verb and the particle that ends its clause, wherever the template put the particle
        // ("schicke Rover zurück" read "zurück" as a message): the two make another verb. Not
        // when a colon says what follows is written ("Schick Anna: bin gleich zurück").
        let framed = u.clauses.lazy.compactMap { clause -> String? in
            guard !keys[clause].contains(":"),
                let pair = words.frames.first(where: { f in
                    f.opening.count + f.closing.count <= clause.count
                        && keys[clause.lowerBound..<(clause.lowerBound + f.opening.count)].elementsEqual(f.opening)
                        && keys[(clause.upperBound - f.closing.count)..<clause.upperBound].elementsEqual(f.closing)
                })
            else { return nil }
            return u.said(clause.lowerBound..<(clause.lowerBound + pair.opening.count)).raw + " … "
                + u.said((clause.upperBound - pair.closing.count)..<clause.upperBound).raw
        }.first
        let phrase = keys.indices.lazy.filter { start in !free.contains(where: { $0.contains(start) }) }
            .compactMap { start in words.match(keys, at: start).map { u.said(start..<(start + $0)).raw } }.first
        if let said = framed ?? phrase {
            return ParseResult(
                intent: nil, alternatives: [frame],
                reason: "out of domain: '\(said)' puts the request outside \(frame.domain)",
                explanation: Explanation(
                    decidedBy: result.explanation.decidedBy, source: result.explanation.source, score: result.explanation.score,
                    appMention: nil,
                    notes: result.explanation.notes + ["'\(said)' puts the request outside \(frame.domain) (lexicon.json outside)"]))
        }
        return result
    }

    /// A name said where the intent has two parameters for names goes to the one whose
    /// vocabulary knows it: "Natter Famille: …" writes to the group Famille (contactGroupName),
    /// not to a person called Famille, when the user has a group and no contact of that name.
    func relabeled(_ result: ParseResult, _ language: LanguageCache) -> ParseResult {
        guard var frame = result.intent, frame.domain != "custom", let spec = catalogue.intent(frame.name) else { return result }
        var changed = false
        for (n, p) in frame.parameters.enumerated() {
            // The value's keys, tokenized once for every vocabulary asked.
            var keys: ArraySlice<String>?
            func known(_ type: String?) -> Bool {
                guard let type, let set = language.vocabularies[type] else { return false }
                if keys == nil { keys = LanguageGrammar.unitKeys(language.grammar.tokenizer.tokenize(p.raw))[...] }
                return set.contains(keys!)
            }
            guard let own = spec.parameter(p.name), own.vocabulary != nil else { continue }
            // The parameters the name could go to, found before the value is tokenized: most
            // intents have none (one parameter of names).
            let others = spec.parameters.filter { q in
                q.name != p.name && q.vocabulary != nil && q.vocabulary != own.vocabulary
                    && (q.list || !frame.parameters.contains { $0.name == q.name })
            }
            guard !others.isEmpty, !known(own.vocabulary), let other = others.first(where: { known($0.vocabulary) }) else { continue }
            frame.parameters[n] = Parameter(name: other.name, value: p.value, raw: p.raw, span: p.span, resolution: p.resolution)
            changed = true
        }
        guard changed else { return result }
        return ParseResult(
            intent: frame, alternatives: result.alternatives, reason: result.reason, explanation: result.explanation,
            shortcut: result.shortcut,
            unavailableApp: result.unavailableApp)
    }

    /// The trained tier's probability of "none" above which it overrules a template reading of
    /// a request that names no app.
    public static let nearMissVeto = 0.9

    /// The probability of "none" that vetoes a reading of templates that bent, when it is the
    /// trained tier's first choice.
    public static let bentVeto = 0.5

    /// How sure the trained tier must be of another intent of the same domain, and how unsure of
    /// the template's, to overrule a template reading.
    static let overruleShare = 0.8
    static let overruledShare = 0.05
    /// Over a template that read only what follows a clause boundary (its preamble left out),
    /// the trained tier's intent wins with at least this probability and this many times the
    /// template intent's.
    static let preambleOverruleShare = 0.6
    static let preambleOverruleRatio = 3.0

    /// The result for shortcuts said: the one shortcut's frame, or a disambiguation.
    func shortcutResult(_ matches: [ShortcutMatcher.Match], language: String, notes: [String]) -> ParseResult {
        let items = matches.prefix(10).map {
            Resolution.Item(id: $0.shortcut.id, display: $0.shortcut.phrase ?? $0.shortcut.id, score: ($0.score * 1000).rounded() / 1000)
        }
        let frames = matches.prefix(10).map {
            $0.shortcut.frame(in: context, catalogue: catalogue, language: language, confidence: ($0.score * 1000).rounded() / 1000)
        }
        if matches.count == 1 {
            let m = matches[0]
            return ParseResult(
                intent: frames[0], alternatives: [], reason: nil,
                explanation: Explanation(
                    decidedBy: "shortcut", source: "shortcut \(m.shortcut.id) '\(m.shortcut.phrase ?? "")'", score: items[0].score,
                    appMention: nil,
                    notes: notes + (m.exact ? [] : ["said nearly as the shortcut phrase '\(m.shortcut.phrase ?? "")'"])),
                shortcut: Resolution(kind: .success, items: items))
        }
        let phrases = matches.prefix(10).map { "'\($0.shortcut.phrase ?? $0.shortcut.id)'" }.joined(separator: ", ")
        return ParseResult(
            intent: nil, alternatives: frames, reason: "near \(matches.count) shortcuts (\(phrases)): which one?",
            explanation: Explanation(
                decidedBy: "shortcut", source: nil, score: items[0].score, appMention: nil, notes: notes),
            shortcut: Resolution(kind: .disambiguation, items: items))
    }

    /// The trained tier of a language (`Grammar/Models/<language>.plm`), nil when none is built.
    func model(for language: String) throws -> FrameModel? { try resources(for: language).model() }

    /// With a context of no apps: the well-known service read as an app of its domains.
    func serviceApp(_ name: String) -> AppDefinition? { serviceApps[name] }

    // MARK: - Units and mentions

    /// The app a frame gives for a named app: none for a service read in a context of no apps.
    func reported(_ app: AppDefinition) -> String? { serviceApps[app.name].map { _ in nil } ?? app.name }

    /// Mentions of context apps, and of services (as "@app" for the trained tier's features).
    func featureMentions(_ units: [MatchUnit], mentions: [Mention], grammar: LanguageGrammar, vocabularies: [String: PhraseSet]) -> [Range<
        Int
    >] {
        Self.featureMentions(mentions) { unavailableApp(in: units, grammar: grammar, vocabularies: vocabularies) }
    }

    /// The ranges read as "@app": the mentions', else the unavailable app's (`unavailable` is
    /// asked only when there is no mention).
    static func featureMentions(_ mentions: [Mention], unavailable: () -> UnavailableMention?) -> [Range<Int>] {
        guard mentions.isEmpty else { return mentions.map(\.range) }
        return unavailable().map { [$0.range] } ?? []
    }

    /// The first app said that the user does not have, unless its words are a known name
    /// ("Lydia" the contact is not Lydia the service).
    func unavailableApp(in units: [MatchUnit], grammar: LanguageGrammar, vocabularies: [String: PhraseSet]) -> UnavailableMention? {
        guard !unavailableApps.isEmpty else { return nil }
        let names = vocabularies["contactName"] ?? PhraseSet()
        var taken: [Range<Int>] = []
        let keys = units.map(\.key)
        while let found = unavailableApps.find(
            in: units, avoiding: taken, articles: grammar.notNames,
            extent: {
                mentionExtent(of: $0, units: units, grammar: grammar, vocabularies: vocabularies)
            }, startsName: { names.longestMatch(keys, at: $0) != nil })
        {
            guard names.contains(units[found.range].map(\.key)[...]) else { return found }
            taken.append(found.range)
        }
        return nil
    }

    /// The match units of tokens; `titles` are the words after which a "." is an
    /// abbreviation's, not a sentence's end (`LanguageGrammar.titleWords`).
    static func units(_ tokens: [Token], titles: Set<String>) -> [MatchUnit] {
        var units: [MatchUnit] = []
        var comma = false
        var sentence = false
        // "Dr. Braun", "James Carter Jr." : the period of a title is no sentence's end.
        for token in tokens {
            if token.kind == .punctuation && token.key != ":" {
                if token.key == "," || token.key == "、" || token.key == "，" { comma = true }
                if sentenceEnds.contains(token.key), !(token.key == "." && units.last.map { titles.contains($0.key) } == true) {
                    sentence = true
                }
                continue
            }
            units.append(
                MatchUnit(
                    key: MatchUnit.boundedKey(token.key), token: token, commaBefore: comma, sentenceBefore: sentence && !units.isEmpty))
            comma = false
            sentence = false
        }
        return units
    }

    /// Punctuation that ends (or, inverted, opens) a sentence.
    static let sentenceEnds: Set<String> = [".", "?", "!", ";", "…", "¿", "¡", "。", "？", "！", "；"]

    static func compact(_ key: String) -> String { compactAppKey(key) }

    /// The context's apps with their names' compact keys, looked up without copying an app.
    struct AppNameKeys {
        let apps: [AppDefinition]
        /// Per app, its names' compact keys.
        let keys: [[String]]
        /// The apps (in the context's order) that have a name with this compact key.
        let exact: [String: [Int]]
        /// The sketch of `exact`'s keys (`Bits256`): a run whose bit is clear names no app
        /// exactly, found without joining or hashing it.
        let exactSketch: Bits256
        /// The shortest name that may be said with one slip ("MonkyChat"), and the shortest
        /// that may be said inflected as a verb ("MonkeyChatte"), in characters.
        static let shortestSlipped = 8
        static let shortestInflected = 6
        /// Nothing shorter is a name said with a slip (one character fewer at most) or
        /// inflected (one character more at least).
        static let shortestNear = min(shortestSlipped - 1, shortestInflected + 1)

        /// Every name that may be said with a slip or inflected (`shortestInflected` characters
        /// or more), app by app in the context's order, each with its app, its length in
        /// characters, its ends (`EditDistance.ends`) and its `EditDistance.letterMask`: what
        /// `near` scans, no app's names copied.
        private let nearNames: [(app: Int, key: String, length: Int, ends: (first: UInt8, last: UInt8)?, mask: UInt64)]
        /// What the ends of the names of `shortestSlipped` characters or more leave (`EndsSketch`).
        private let slipEnds: EndsSketch
        /// (length, first byte) of every name of `nearNames`, for inflected names.
        private let inflectedFirsts: Bits256

        /// Whether a run of several words (their compact keys, end to end) may be a name said
        /// with one slip, found without joining it: false when `near` finds no name for it
        /// (no name said with one slip has its length and ends, `slipEnds`); nil when a key has
        /// a byte outside ASCII or a line break (its characters may then not be its bytes).
        func mayBeNear(run parts: ArraySlice<String>) -> Bool? { mayBeNear(KeyBytes.joining(parts.map(KeyBytes.init)[...])) }

        /// `mayBeNear(run:)` from the run's `KeyBytes` (`KeyBytes.joining` of its words').
        func mayBeNear(_ run: KeyBytes) -> Bool? {
            guard run.plain, run.count >= 3, let first = run.first, let last = run.last else { return nil }
            return slipEnds.mayBeNear(length: run.count, ends: (first, last))
        }

        /// A key's length in bytes, its first and last bytes, and whether all its bytes are
        /// ASCII other than a line break (its characters are then its bytes): what a run's
        /// sketch (`Bits256.sketch(joining:)`) and `mayBeNear` read, read once per word.
        struct KeyBytes {
            var count = 0
            var first: UInt8?
            var last: UInt8?
            var plain = true

            init(_ key: String) {
                let read = { (bytes: UnsafeBufferPointer<UInt8>) -> KeyBytes in
                    var made = KeyBytes(count: bytes.count, first: bytes.first, last: bytes.last, plain: true)
                    for byte in bytes where byte >= 0x80 || byte == 0x0D || byte == 0x0A {
                        made.plain = false
                        break
                    }
                    return made
                }
                self = key.utf8.withContiguousStorageIfAvailable(read) ?? Array(key.utf8).withUnsafeBufferPointer(read)
            }

            init(count: Int, first: UInt8?, last: UInt8?, plain: Bool) {
                self.count = count
                self.first = first
                self.last = last
                self.plain = plain
            }

            /// The words' bytes run together: the lengths summed, the first word's first byte
            /// and the last word's last byte (empty words left out), plain if every word is.
            static func joining(_ words: ArraySlice<KeyBytes>) -> KeyBytes {
                var run = KeyBytes(count: 0, first: nil, last: nil, plain: true)
                for word in words {
                    run.count += word.count
                    if run.first == nil { run.first = word.first }
                    if let last = word.last { run.last = last }
                    run.plain = run.plain && word.plain
                }
                return run
            }

            /// `Bits256.sketch(joining:)` of the words these are the bytes of.
            var sketch: Int { Bits256.sketch(count: count, first: first, last: last) }
        }

        /// The apps, in the context's order, with a name that `said` (of `count` characters) is
        /// with one slip (names of `shortestSlipped` characters or more), or, for a `single`
        /// word, inflected as a verb (the name and one to three more characters).
        func near(_ said: String, count: Int, single: Bool) -> [Int] {
            let ends = EditDistance.ends(said)
            // Ruled out by sketches first: no name said with one slip has these ends and a
            // length within one, and no name inflected is this many characters shorter with
            // this first byte.
            if !slipEnds.mayBeNear(length: count, ends: ends) {
                guard single, let byte = said.utf8.first,
                    (max(0, count - 3)..<count).contains(where: {
                        inflectedFirsts.contains(Bits256.sketch(count: $0, first: byte, last: nil))
                    })
                else { return [] }
            }
            var found: [Int] = []
            // The said word's letters, worked out when a name is first compared.
            var mask: UInt64?
            func saidMask() -> UInt64 {
                if let mask { return mask }
                let made = EditDistance.letterMask(said)
                mask = made
                return made
            }
            for name in nearNames where found.last != name.app {
                let n = name.length
                if (n >= Self.shortestSlipped && abs(n - count) <= 1 && !EditDistance.endsRuleOut(ends, name.ends)
                    && !EditDistance.maskRulesOut(saidMask(), name.mask)
                    && EditDistance.withinOne(said, name.key))
                    || (single && count > n && count <= n + 3 && said.hasPrefix(name.key))
                {
                    found.append(name.app)
                }
            }
            return found
        }

        init(_ apps: [AppDefinition]) {
            self.apps = apps
            keys = apps.map { app in app.allNames.map { IntentParser.compact(TextNormalizer.key($0)) } }
            let lengths = keys.map { $0.map(\.count) }
            var nearNames: [(app: Int, key: String, length: Int, ends: (first: UInt8, last: UInt8)?, mask: UInt64)] = []
            for (app, names) in keys.enumerated() {
                for (n, name) in names.enumerated() where lengths[app][n] >= Self.shortestInflected {
                    nearNames.append((app, name, lengths[app][n], EditDistance.ends(name), EditDistance.letterMask(name)))
                }
            }
            self.nearNames = nearNames
            var slipEnds = EndsSketch()
            var inflectedFirsts = Bits256()
            for name in nearNames {
                if name.length >= Self.shortestSlipped { slipEnds.insert(length: name.length, ends: name.ends) }
                if let byte = name.key.utf8.first { inflectedFirsts.insert(Bits256.sketch(count: name.length, first: byte, last: nil)) }
            }
            self.slipEnds = slipEnds
            self.inflectedFirsts = inflectedFirsts
            var exact: [String: [Int]] = [:]
            for (index, names) in keys.enumerated() {
                for name in Set(names) { exact[name, default: []].append(index) }
            }
            self.exact = exact
            var sketch = Bits256()
            for key in exact.keys { sketch.insert(Bits256.sketch(key)) }
            exactSketch = sketch
        }
    }

    struct Mention {
        var app: AppDefinition
        var range: Range<Int>
        var said: String

        /// Whether the mention opens the request (possibly after a wake word), with nothing
        /// but the name removed: the app name is then the verb.
        func isLeading(_ removal: Range<Int>) -> Bool {
            removal == range && range.lowerBound <= 3
        }
    }

    /// App names in the units: the name or an alternative, case-, accent- and
    /// spacing-insensitive ("monkey chat"), with one slip allowed in long names
    /// ("MonkyChat"), or inflected as a verb ("MonkeyChatte"). A name that only looks
    /// like an app name (confusable letters from another script) is not that app.
    /// `lookalikes` gets a sentence for each look-alike refused (also added to `notes`).
    ///
    /// An app name inside a longer known name of the context's vocabularies is that name, not
    /// the app ("a Zippy XL to the station" asks for the ride option Zippy XL).
    func findMentions(_ units: [MatchUnit], notes: inout [String], lookalikes: inout [String], vocabularies: [String: PhraseSet] = [:])
        -> [Mention]
    {
        var inNames: [Range<Int>] = []
        return findMentions(units, notes: &notes, lookalikes: &lookalikes, vocabularies: vocabularies, inNames: &inNames)
    }

    /// `inNames` gets the app names said inside known names.
    func findMentions(
        _ units: [MatchUnit], notes: inout [String], lookalikes: inout [String], vocabularies: [String: PhraseSet],
        inNames: inout [Range<Int>]
    ) -> [Mention] {
        let keys = units.map(\.key)
        func insideKnownName(_ range: Range<Int>) -> Bool {
            vocabularies.contains { type, set in
                // A phrase holds only words of the set.
                guard type != ".", set.longest > range.count, range.allSatisfy({ set.hasWord(keys[$0]) }) else { return false }
                for start in max(0, range.upperBound - set.longest)...range.lowerBound {
                    for end in range.upperBound...min(keys.count, start + set.longest)
                    where end - start > range.count && set.contains(keys[start..<end]) { return true }
                }
                return false
            }
        }
        var mentions: [Mention] = []
        // Each unit's key compacted once: a run of units is compacted as its units are (the
        // compaction only drops spaces, hyphens, apostrophes and periods).
        let compactKeys = keys.map { IntentParser.compact($0) }
        // Their lengths and ends, read once: a run's are worked out from its units'.
        let keyBytes = compactKeys.map(AppNameKeys.KeyBytes.init)
        var i = 0
        while i < units.count {
            var found: Mention?
            // Exact names first, over every length; only then one slip or an inflection.
            search: for pass in 0..<2 {
                for length in stride(from: min(3, units.count - i), through: 1, by: -1) {
                    let range = i..<(i + length)
                    let run = AppNameKeys.KeyBytes.joining(keyBytes[range])
                    // Ruled out before the run is joined: by the sketch of the exact names, or
                    // (with one slip or inflected) by its bytes, never fewer than its characters.
                    if pass == 0, !appKeys.exactSketch.contains(run.sketch) { continue }
                    if pass == 1, run.count < AppNameKeys.shortestNear { continue }
                    // Several words (never inflected) that no name said with a slip can be.
                    if pass == 1, length > 1, appKeys.mayBeNear(run) == false { continue }
                    let joined = compactKeys[range].concatenated()
                    let joinedCount = pass == 0 ? 0 : joined.characterCount
                    // Only a name of six characters or more may be said with a slip or inflected,
                    // and the said name is then at least seven.
                    if pass == 1, joinedCount < AppNameKeys.shortestNear { continue }
                    // Exactly: the apps of the name; else the apps with a name said with one slip or
                    // inflected (`AppNameKeys.near`), in the context's order.
                    for index in pass == 0 ? appKeys.exact[joined] ?? [] : appKeys.near(joined, count: joinedCount, single: length == 1) {
                        let names = appKeys.keys[index]
                        // A slip that is really a word next to the exact name ("a Soup Chef") is that name.
                        if pass == 1, length > 1,
                            names.contains(IntentParser.compact(units[(i + 1)..<range.upperBound].map(\.key).joined()))
                                || names.contains(IntentParser.compact(units[i..<(range.upperBound - 1)].map(\.key).joined()))
                        {
                            continue
                        }
                        let said = units[range].map(\.token.text).joined(separator: " ")
                        // Letters from another script in a Latin name ("MоnkeyChat" with a Cyrillic о).
                        let key = TextNormalizer.key(said)
                        if Confusables.isSuspicious(said) || TextNormalizer.latinIfNeeded(key) != key {
                            let note = "'\(said)' looks like \(appKeys.apps[index].name) but mixes scripts: not taken as the app"
                            notes.append(note)
                            lookalikes.append(note)
                            continue
                        }
                        found = Mention(app: appKeys.apps[index], range: range, said: said)
                        break search
                    }
                }
            }
            if let found, insideKnownName(found.range) {
                notes.append("'\(found.said)' is part of a known name, not the app \(found.app.name)")
                inNames.append(found.range)
                i = found.range.upperBound
            } else if let found {
                mentions.append(found)
                i = found.range.upperBound
            } else {
                i += 1
            }
        }
        return mentions
    }

    /// The mention and the words that go with it ("on MonkeyChat", "open MonkeyFit and").
    /// The units without the mention and the words that go with it, what was removed, and
    /// the score the removed words are worth (as if matched by a template).
    func removing(_ mention: Mention, from units: [MatchUnit], grammar: LanguageGrammar, vocabularies: [String: PhraseSet])
        -> (rest: [MatchUnit], removal: Range<Int>, bonus: Double)
    {
        let removal = mentionExtent(mention, units: units, grammar: grammar, vocabularies: vocabularies)
        var rest = units
        rest.removeSubrange(removal)
        return (rest, removal, MatchScores.literal * Double(removal.count))
    }

    func mentionExtent(_ mention: Mention, units: [MatchUnit], grammar: LanguageGrammar, vocabularies: [String: PhraseSet]) -> Range<Int> {
        mentionExtent(of: mention.range, units: units, grammar: grammar, vocabularies: vocabularies)
    }

    /// The words of the language's mention rule around an app name at `range`.
    func mentionExtent(of range: Range<Int>, units: [MatchUnit], grammar: LanguageGrammar, vocabularies: [String: PhraseSet]) -> Range<Int>
    {
        let oracle = SlotOracle(
            units: units, entities: [:], vocabularies: vocabularies, binding: SlotBinding(), app: range)
        let matcher = AutomatonMatcher(automaton: grammar.mention.shared, oracle: oracle)
        var best = range
        // The rule's one slot is the app's: every other unit of a match is read as a word (or one
        // slip from one). A unit that is neither ends the runs: no start before it and no end
        // after it is tried (each such run would be refused).
        var lowest = range.lowerBound
        while lowest > max(0, range.lowerBound - 5), matcher.mayReadWord(lowest - 1) { lowest -= 1 }
        var highest = range.upperBound
        while highest < min(units.count, range.upperBound + 3), matcher.mayReadWord(highest) { highest += 1 }
        for start in stride(from: range.lowerBound, through: lowest, by: -1) {
            for end in range.upperBound...highest {
                if end - start > best.count, matcher.accepts(start: grammar.mention.start, from: start, to: end) { best = start..<end }
            }
        }
        // An app addressed at the start of a clause, before a colon ("Natter: tell Rob …",
        // "Hey Siri, Cashly: bill Paul …"): the colon goes with it.
        if best.upperBound < units.count, units[best.upperBound].key == ":",
            best.lowerBound == 0 || units[best.lowerBound].commaBefore || units[best.lowerBound].sentenceBefore
        {
            best = best.lowerBound..<(best.upperBound + 1)
        }
        return best
    }

    // MARK: - Matching

    struct Candidate {
        var intent: IntentKey
        var score: Double
        var path: MatchPath
        var units: [MatchUnit]
        var mention: Mention?
        var coverage: Double
        var template: SentenceFile.Template?
        var scalars: [Unicode.Scalar]
        var dotted: PhraseSet
        /// The custom grammar the candidate comes from, and its custom intent.
        var custom: CustomGrammar?
        var entry: CustomGrammar.Entry?
        /// The donations' weight for the candidate's intent (0 to 1), added to its score.
        var donationWeight = 0.0
        /// The app the donations point to, when none was named and several handle the intent.
        var donatedApp: String?
        /// Read from a clause boundary, the words before it left out (`Reading.onlyIfUnread`).
        var afterPreamble = false

        /// The intent's name as frames give it.
        var name: String { entry?.intent.name ?? intent.catalogueName ?? "\(intent)" }

        /// Whether an app handles the candidate's intent (a custom intent: the app declaring it).
        func handled(by app: AppDefinition) -> Bool {
            if let entry { return entry.app.name == app.name }
            return app.handles(name)
        }
    }

    func match(
        _ compiled: LanguageGrammar.Compiled, _ grammar: LanguageGrammar, custom: CustomGrammar?, units: [MatchUnit], entities: [Entity],
        scalars: [Unicode.Scalar],
        vocabularies: [String: PhraseSet], bound: [PhraseSet?] = [], mention: Mention?, bonus: Double, bend: Bool = false,
        kept: [Range<Int>] = []
    ) -> [Candidate] {
        guard !units.isEmpty else { return [] }
        var entityUnits: [Int: [(end: Int, entity: Entity)]] = [:]
        for entity in entities {
            guard let start = units.firstIndex(where: { $0.token.span.start == entity.span.start }) else { continue }
            var end = start
            while end < units.count, units[end].token.span.end <= entity.span.end { end += 1 }
            if end > start, units[end - 1].token.span.end == entity.span.end { entityUnits[start, default: []].append((end, entity)) }
        }
        var oracle = SlotOracle(
            units: units, entities: entityUnits, vocabularies: vocabularies, binding: compiled.binding,
            wordClasses: grammar.wordClasses, capitalizedNouns: grammar.capitalizedNouns, app: nil,
            mentions: kept)
        oracle.valueStartWords = custom?.valueStartWords ?? grammar.valueStartWords
        oracle.boundVocabularies = bound
        let matcher = AutomatonMatcher(automaton: compiled.shared, oracle: oracle, bend: bend)
        let accepted = matcher.run(start: compiled.start, from: 0, to: units.count)
        let dotted = vocabularies["."] ?? PhraseSet()
        return accepted.compactMap { state, path in
            guard let intent = compiled.accepting[state], let index = path.templateIndex else { return nil }
            let template = (custom?.templates ?? grammar.heads)[index]
            // A template with no word of its own (a verbified one) stands only with an app name,
            // and a match whose unknown words outweigh its known ones is no match.
            guard path.literals > 0 || mention != nil, path.score + bonus > 0 else { return nil }
            let coverage = min(1, Double(path.literals) / Double(max(units.count, 1)))
            let fixed = MatchScores.capture * Double(template.fixed.count)
            return Candidate(
                intent: intent, score: path.score + bonus + fixed, path: path, units: units, mention: mention, coverage: coverage,
                template: template, scalars: scalars,
                dotted: dotted, custom: custom, entry: custom?.entry(intent))
        }
    }

    // MARK: - Decision

    func decide(_ candidates: [Candidate], notes: [String], mentions: [Mention], time: Double) -> ParseResult {
        var notes = notes
        // Best candidate per intent.
        var best: [IntentKey: Candidate] = [:]
        for c in candidates where best[c.intent].map({ c.score > $0.score }) ?? true { best[c.intent] = c }
        // What the user does often and recently weighs in near-ties (at most `donation`).
        if !donations.isEmpty {
            for (key, c) in best {
                let apps = c.mention.map { [$0.app.name] } ?? c.entry.map { [$0.app.name] } ?? apps(handling: c.name).map(\.name)
                let weights = apps.map { (app: $0, weight: donations.weight(app: $0, intent: c.name, at: time)) }.sorted {
                    $0.weight > $1.weight
                }
                guard let top = weights.first, top.weight > 0 else { continue }
                best[key]!.score += MatchScores.donation * top.weight
                best[key]!.donationWeight = top.weight
                // No app named and several handle the intent: the one the user uses for it,
                // when its lead is clear.
                if apps.count > 1, top.weight - (weights.count > 1 ? weights[1].weight : 0) >= Self.donationLead {
                    best[key]!.donatedApp = top.app
                }
            }
        }
        let ranked = best.values.sorted { $0.score != $1.score ? $0.score > $1.score : $0.intent < $1.intent }
        let mentionText = mentions.first.map { "\($0.said) → \($0.app.name)" }
        guard let top = ranked.first else {
            return ParseResult(
                intent: nil, alternatives: [], reason: "no template matched",
                explanation: Explanation(
                    decidedBy: "none", source: nil, score: nil, appMention: mentionText, notes: notes))
        }
        // An app was named: only the readings it handles compete. "X does not handle …" only
        // when it handles none of them.
        if let mention = top.mention ?? mentions.first, !top.handled(by: mention.app) {
            let handled = ranked.filter { c in c.mention.map { c.handled(by: $0.app) } ?? false }
            if let alternative = handled.first, alternative.score >= top.score - Self.plausibleReadingGap {
                notes.append("\(mention.app.name) does not handle \(top.name); the best reading it handles is \(alternative.name)")
                return result(alternative, ranked: ranked, notes: notes, mentionText: mentionText)
            }
            notes.append("the best reading is \(top.name), which \(mention.app.name) does not handle")
            return ParseResult(
                intent: nil, alternatives: ranked.prefix(3).map { frame($0) }, reason: "\(mention.app.name) does not handle \(top.name)",
                explanation: Explanation(
                    decidedBy: "template", source: top.template?.source, score: top.score, appMention: mentionText, notes: notes))
        }
        // The same custom intent from two apps, equally likely, and no app named: ask which app.
        if top.mention == nil, let entry = top.entry {
            let tied = ranked.filter { c in
                c.entry.map { $0.intent.name == entry.intent.name } == true && top.score - c.score < Self.appTieMargin
            }
            if Set(tied.compactMap { $0.entry?.app.name }).count > 1 {
                let apps = tied.compactMap { $0.entry?.app.name }
                notes.append(
                    "\(apps.joined(separator: " and ")) both read it as \(entry.intent.name) (scores \(tied.map { String(format: "%.2f", $0.score) }.joined(separator: ", ")))"
                )
                return ParseResult(
                    intent: nil, alternatives: tied.prefix(3).map { frame($0) },
                    reason: "\(entry.intent.name) of which app: \(apps.joined(separator: ", "))?",
                    explanation: Explanation(
                        decidedBy: "template", source: top.template?.source, score: top.score, appMention: nil, notes: notes))
            }
        }
        return result(top, ranked: ranked, notes: notes, mentionText: mentionText)
    }

    /// How far below the best reading a reading the named app handles may score and still be
    /// taken (a plausible reading); further down, "X does not handle …".
    static let plausibleReadingGap = 1.5

    /// Readings of the same custom intent from different apps this close are a tie.
    static let appTieMargin = 0.1

    /// How far ahead of the next one an app's donation weight must be for a request that names
    /// no app to go to it.
    public static let donationLead = 0.3

    func result(_ chosen: Candidate, ranked: [Candidate], notes: [String], mentionText: String?) -> ParseResult {
        var notes = notes
        if chosen.donationWeight > 0 {
            notes.append(
                "donations: \(chosen.name) weighs \((chosen.donationWeight * 100).rounded() / 100) (+\((MatchScores.donation * chosen.donationWeight * 1000).rounded() / 1000))"
                    + (chosen.donatedApp.map { ", app \($0) from donations" } ?? ""))
        }
        if chosen.path.skips > 0 {
            notes.append("the template bent: \(chosen.path.skips) word\(chosen.path.skips == 1 ? "" : "s") no template has there skipped")
        }
        let alternatives = ranked.filter { $0.intent != chosen.intent }.prefix(3).map { frame($0) }
        return ParseResult(
            intent: frame(chosen), alternatives: Array(alternatives), reason: nil,
            explanation: Explanation(
                decidedBy: "template", source: chosen.template?.source, score: (chosen.score * 1000).rounded() / 1000,
                appMention: mentionText, notes: notes))
    }

    private func frame(_ c: Candidate) -> IntentFrame {
        if let entry = c.entry { return customFrame(c, entry) }
        let spec = catalogue.intent(c.name)!
        let app: String? =
            if let mention = c.mention { reported(mention.app) } else {
                {
                    let apps = apps(handling: c.name)
                    return apps.count == 1 ? apps[0].name : c.donatedApp
                }()
            }
        var parameters: [Parameter] = []
        let text = { (range: Range<Int>) -> (String, Span) in self.surface(c, range) }
        for capture in c.path.captures where capture.parameter != "_" {
            guard let p = spec.parameter(capture.parameter) ?? (capture.parameter == "goal" ? spec.parameter("goalValue") : nil) else {
                continue
            }
            switch capture.value {
            case .words:
                let (raw, span) = text(capture.range)
                parameters.append(Parameter(name: p.name, value: .text(raw), raw: raw, span: span))
            case .list(let items):
                for item in items {
                    let (raw, span) = text(item)
                    parameters.append(Parameter(name: p.name, value: .text(raw), raw: raw, span: span))
                }
            case .entity(let entity):
                parameters.append(Parameter(name: p.name, value: value(entity, for: p), raw: entity.text, span: entity.span))
            case .enumeration(let value):
                let (raw, span) = text(capture.range)
                parameters.append(
                    Parameter(name: p.name, value: p.type == .boolean ? .boolean(value == "true") : .enumCase(value), raw: raw, span: span))
            case .goal(let entity):
                switch entity.value {
                case .duration(let m), .distance(let m), .energy(let m):
                    parameters.append(Parameter(name: "goalValue", value: .number(m.amount), raw: entity.text, span: entity.span))
                    parameters.append(
                        Parameter(name: "workoutGoalUnitType", value: .enumCase(m.unit.rawValue), raw: entity.text, span: entity.span))
                default:
                    continue
                }
            case .app:
                continue
            }
        }
        for (name, value) in c.template?.fixed ?? [] {
            let p = spec.parameter(name)
            let typed: ParameterValue = p?.type == .boolean ? .boolean(value == "true") : .enumCase(value)
            parameters.append(Parameter(name: name, value: typed, raw: value, span: nil))
        }
        let confidence = min(0.99, 0.6 + 0.39 * c.coverage)
        return IntentFrame(
            domain: spec.domain, name: spec.name, app: app, confidence: (confidence * 1000).rounded() / 1000, parameters: parameters)
    }

    /// A frame of a custom intent: domain "custom", the declaring app, typed parameters (an
    /// enum's case id; the words as said when they name several cases, for the resolver to
    /// disambiguate).
    private func customFrame(_ c: Candidate, _ entry: CustomGrammar.Entry) -> IntentFrame {
        var parameters: [Parameter] = []
        for capture in c.path.captures where capture.parameter != "_" {
            let name = CustomGrammar.parameterName(capture.parameter)
            guard let p = entry.intent.parameter(name) else { continue }
            switch capture.value {
            case .words:
                let (raw, span) = surface(c, capture.range)
                parameters.append(Parameter(name: name, value: .text(raw), raw: raw, span: span))
            case .list(let items):
                for item in items {
                    let (raw, span) = surface(c, item)
                    parameters.append(Parameter(name: name, value: .text(raw), raw: raw, span: span))
                }
            case .entity(let entity):
                if case .number(let n) = entity.value {
                    parameters.append(Parameter(name: name, value: .number(n), raw: entity.text, span: entity.span))
                }
            case .enumeration(let value):
                let (raw, span) = surface(c, capture.range)
                let values = c.custom?.enumerations[capture.parameter]?.values(of: c.units[capture.range].map(\.key)[...]) ?? [value]
                let typed: ParameterValue =
                    values.count > 1 ? .text(raw) : p.type == .boolean ? .boolean(value == "true") : .enumCase(value)
                parameters.append(Parameter(name: name, value: typed, raw: raw, span: span))
            case .goal, .app:
                continue
            }
        }
        let confidence = min(0.99, 0.6 + 0.39 * c.coverage)
        return IntentFrame(
            domain: "custom", name: entry.intent.name, app: entry.app.name, confidence: (confidence * 1000).rounded() / 1000,
            parameters: parameters)
    }

    /// The utterance's own text from the first unit to the last, verbatim; a final "."
    /// belongs to it when the vocabulary writes the name with one ("Bobo Jr.").
    private func surface(_ c: Candidate, _ range: Range<Int>) -> (String, Span) {
        let first = c.units[range.lowerBound].token.span.start
        var last = c.units[range.upperBound - 1].token.span.end
        if last < c.scalars.count, c.scalars[last] == ".", c.dotted.contains(c.units[range].map(\.key)[...]) { last += 1 }
        return (String(scalars: c.scalars[first..<last]), Span(first, last))
    }

    func value(_ entity: Entity, for p: ParameterSpec) -> ParameterValue {
        if p.type == .temporalTrigger, let trigger = TemporalTrigger(entity.value) { return .temporalTrigger(trigger) }
        return switch entity.value {
        case .number(let n): .number(n)
        case .currencyAmount(let a): .currencyAmount(a)
        case .date(let d): p.type == .dateRange ? .dateRange(DateRange(start: d, end: d)) : .date(d)
        case .dateRange(let r): .dateRange(r)
        case .dateTime(let t): .date(t)
        case .duration(let m), .distance(let m), .energy(let m): .number(m.amount)
        case .recurrence(let r): .text(r.start ?? r.frequency.rawValue)
        }
    }

    // MARK: - Caches

    /// What a language needs whatever the vocabulary holds: its grammar, the context's
    /// shortcuts compiled for it, and (on first use) its trained tier and gazetteer. Built once
    /// per parser and language.
    final class LanguageBase: Sendable {
        let grammar: LanguageGrammar
        let shortcuts: ShortcutMatcher
        /// The context's custom intents compiled for the language: they depend on the context
        /// and the grammar, never on the vocabulary store (the mention rule takes no names).
        let custom: CustomGrammar
        private let modelSlot = Locked<FrameModel??>(nil)
        private let gazetteerSlot = Locked<[String: PhraseSet]?>(nil)

        init(grammar: LanguageGrammar, shortcuts: ShortcutMatcher, custom: CustomGrammar) {
            self.grammar = grammar
            self.shortcuts = shortcuts
            self.custom = custom
        }

        /// The trained tier (`Grammar/Models/<language>.plm`), nil when none is built.
        func model() throws -> FrameModel? {
            try modelSlot.withLock { slot in
                if let loaded = slot { return loaded }
                let model = try FrameModel.load(language: grammar.language)
                slot = .some(model)
                return model
            }
        }

        /// The language's gazetteer (`gazetteer.json`) as phrase sets by kind, read on first use;
        /// empty when the language has none.
        func gazetteerSets() -> [String: PhraseSet] {
            gazetteerSlot.withLock { slot in
                if let known = slot { return known }
                var sets: [String: PhraseSet] = [:]
                if let gazetteer = try? Gazetteer.load(language: grammar.language) {
                    for (kind, values) in gazetteer.values where kind != "description" {
                        var set = PhraseSet()
                        for value in values { set.insert(LanguageGrammar.unitKeys(grammar.tokenizer.tokenize(value))) }
                        sets[kind] = set
                    }
                }
                // Well-known places (cities, regions, countries: `places.json`), as people write them.
                if let url = LanguageGrammar.directory?.appendingPathComponent(grammar.language).appendingPathComponent("places.json"),
                    let data = try? Data(contentsOf: url), let names = try? JSONGuard.decode([String].self, from: data)
                {
                    var set = PhraseSet()
                    for name in names { set.insert(LanguageGrammar.unitKeys(grammar.tokenizer.tokenize(name))) }
                    sets[LanguageCache.knownPlaces] = set
                }
                slot = sets
                return sets
            }
        }
    }

    /// Everything compiled for one language and one version of the vocabulary store: the
    /// language's `LanguageBase`, the store's items as phrase sets in its words, the context's
    /// custom intents compiled against them, and (on first use) the custom-intent tier. Made
    /// again, on the same base, when the store has moved on.
    final class LanguageCache: Sendable {
        let base: LanguageBase
        /// The store's items as of the version these were made from.
        let items: VocabularyStore.Snapshot
        let vocabularies: [String: PhraseSet]
        /// The user's own items by vocabulary type (the store's phrases, pronunciations and
        /// nicknames), without the language's generic words for the type (`lexicon.json`
        /// "vocabulary") that `vocabularies` also holds.
        let userItems: [String: PhraseSet]
        private let tierSlot = Locked<CustomTier?>(nil)
        /// `vocabularies` by each binding's vocabulary names (`vocabularies(of:)`), by the
        /// binding's serial.
        private let bound = Locked<[Int: [PhraseSet?]]>([:])

        /// `vocabularies` by `binding.vocabularyNames`' indices, resolved once per binding: a
        /// run then finds a slot's vocabulary without hashing its name.
        func vocabularies(of binding: SlotBinding) -> [PhraseSet?] {
            guard binding.serial != 0 else { return [] }
            if let known = bound.withLock({ $0[binding.serial] }) { return known }
            let made = binding.vocabularyNames.map { vocabularies[$0] }
            bound.withLock { $0[binding.serial] = made }
            return made
        }

        /// The gazetteer kind of the language's well-known places.
        static let knownPlaces = "knownPlace"

        /// Per app (by name, with the names of the intents it handles), which of the language
        /// model's classes it handles (`classesHandled(by:in:)`).
        private let handled = Locked<[String: (intents: [String], classes: [Bool])]>([:])

        /// Which of `model`'s classifier classes `app` handles (`AppDefinition.handles`), by
        /// index, worked out once per app for the language's model: a ranking restricted to a
        /// named app's intents asks it of every class.
        func classesHandled(by app: AppDefinition, in model: FrameModel) -> [Bool] {
            let classes = model.classifier.classes
            if let known = handled.withLock({ $0[app.name] }), known.classes.count == classes.count,
                known.intents.count == app.intents.count, zip(known.intents, app.intents).allSatisfy({ $0 == $1.name })
            {
                return known.classes
            }
            let made = classes.map { app.handles($0) }
            handled.withLock { $0[app.name] = (app.intents.map(\.name), made) }
            return made
        }

        init(base: LanguageBase, items: VocabularyStore.Snapshot, vocabularies: [String: PhraseSet], userItems: [String: PhraseSet]) {
            self.base = base
            self.items = items
            self.vocabularies = vocabularies
            self.userItems = userItems
        }

        var grammar: LanguageGrammar { base.grammar }
        var custom: CustomGrammar { base.custom }
        var shortcuts: ShortcutMatcher { base.shortcuts }
        /// The store version these were made from.
        var version: UInt64 { items.version }
        func model() throws -> FrameModel? { try base.model() }
        func gazetteerSets() -> [String: PhraseSet] { base.gazetteerSets() }

        /// The custom-intent tier, made by `make` on first use (see `CustomTier`). It is made
        /// during the first parse that asks for it, but is none of that parse's work: made
        /// unmetered (`WorkMeter.unmetered`), so that it is the same whatever that parse's budget
        /// and a parse takes the same steps whether it comes first or not.
        func customTier(_ make: () throws -> CustomTier) throws -> CustomTier {
            if let tier = tierSlot.withLock({ $0 }) { return tier }
            let tier = try WorkMeter.unmetered(make)
            return tierSlot.withLock { slot in
                if let existing = slot { return existing }
                slot = tier
                return tier
            }
        }
    }

    /// The compiled resources of a language for the store's current version, built on first
    /// use and again (on the same grammar) after every vocabulary update.
    func resources(for language: String) throws -> LanguageCache {
        guard LanguageGrammar.availableLanguages.contains(language) else {
            throw ParseError.unsupportedLanguage(language, supported: LanguageGrammar.availableLanguages)
        }
        let version = vocabulary.version
        if let known = languages.withLock({ $0[language] }), known.version == version { return known }
        let base = try base(for: language)
        let grammar = base.grammar
        let items = vocabulary.snapshot()
        let userItems = makeUserItems(grammar, items)
        let vocabularies = makeVocabularies(grammar, userItems: userItems, items)
        let made = LanguageCache(base: base, items: items, vocabularies: vocabularies, userItems: userItems)
        return languages.withLock { cache in
            // Another parse may have made a newer one meanwhile: the newest stays.
            if let existing = cache[language], existing.version >= made.version { return existing }
            cache[language] = made
            return made
        }
    }

    /// What a language needs whatever the vocabulary holds, built once.
    private func base(for language: String) throws -> LanguageBase {
        if let known = bases.withLock({ $0[language] }) { return known }
        let tokenizer = try analyzer.pack(for: ParlanceLocale(language)).tokenizer
        let grammar = try LanguageGrammar.load(language: language, catalogue: catalogue, tokenizer: tokenizer).grammar
        // The mention rule has no slot but the app's name: the words around a mention do not
        // depend on any vocabulary.
        let custom = try CustomGrammar.load(context: context, grammar: grammar, catalogue: catalogue) { mention, units in
            self.mentionExtent(mention, units: units, grammar: grammar, vocabularies: [:])
        }
        let made = LanguageBase(
            grammar: grammar, shortcuts: try ShortcutMatcher(shortcuts: context.shortcuts, grammar: grammar), custom: custom)
        return bases.withLock { cache in
            if let existing = cache[language] { return existing }
            cache[language] = made
            return made
        }
    }

    func grammar(for language: String) throws -> LanguageGrammar { try resources(for: language).grammar }

    func vocabularies(for language: String) throws -> [String: PhraseSet] { try resources(for: language).vocabularies }

    /// Every vocabulary type of the catalogue and of the context's custom intents.
    private var vocabularyTypes: Set<String> {
        Set(catalogue.intents.flatMap(\.parameters).compactMap(\.vocabulary))
            .union(context.apps.flatMap(\.customIntents).flatMap(\.parameters).compactMap(\.vocabulary))
    }

    /// The user's own items of every vocabulary type (phrases, pronunciations and nicknames), as
    /// phrase sets in a language's words (`LanguageCache.userItems`).
    private func makeUserItems(_ grammar: LanguageGrammar, _ store: VocabularyStore.Snapshot) -> [String: PhraseSet] {
        var sets: [String: PhraseSet] = [:]
        for type in vocabularyTypes {
            var set = PhraseSet()
            let items = store.items(type)
            for phrase in items.map(\.phrase) + items.compactMap(\.pronunciation) + items.compactMap(\.nickname) {
                set.insert(LanguageGrammar.unitKeys(grammar.tokenizer.tokenize(phrase)))
            }
            sets[type] = set
        }
        return sets
    }

    /// The context's vocabularies as phrase sets in a language's words: the user's own items
    /// (`userItems`, tokenized once) with the language's generic words for each type
    /// (`lexicon.json` "vocabulary"), and the phrase sets the matcher keeps beside them.
    private func makeVocabularies(_ grammar: LanguageGrammar, userItems: [String: PhraseSet], _ store: VocabularyStore.Snapshot)
        -> [String: PhraseSet]
    {
        var sets: [String: PhraseSet] = [:]
        let types = vocabularyTypes
        for type in types {
            var set = userItems[type] ?? PhraseSet()
            // Contacts are also said by the user's word for them ("my mom": `names.json`) and by
            // their nicknames.
            for keys in grammar.vocabularyKeys[type] ?? [] { set.insert(keys) }
            sets[type] = set
        }
        // Names written with a final "." ("Bobo Jr."), whose surface keeps it.
        var dotted = PhraseSet()
        for type in types {
            for item in store.items(type) where item.phrase.hasSuffix(".") {
                dotted.insert(LanguageGrammar.unitKeys(grammar.tokenizer.tokenize(item.phrase)))
            }
        }
        sets["."] = dotted
        var titles = PhraseSet()
        for keys in grammar.titlePhraseKeys { titles.insert(keys) }
        sets[SlotOracle.titlePhrases] = titles
        return sets
    }
}

/// Why `IntentParser` cannot parse at all, as opposed to finding no intent (which is a result).
public enum ParseError: Error, Sendable, CustomStringConvertible {
    /// The locale's language (the first value) has no intent grammar; `supported` lists the languages
    /// that have one.
    case unsupportedLanguage(String, supported: [String])

    /// A message naming the language and the supported ones.
    public var description: String {
        switch self {
        case .unsupportedLanguage(let language, let supported):
            "no intent grammar for '\(language)': parsing supports \(supported.joined(separator: ", "))"
        }
    }
}
