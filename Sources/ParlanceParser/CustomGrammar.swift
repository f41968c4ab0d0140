import Foundation
import ParlanceContext
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
/// - A phrase whose verb is one of its category's verbs (the `category_<category>` rule of
///   the language's `common.sentences`, e.g. `category_order`: "order", "get me", "I'd like",
///   "pídeme", "je voudrais") is also read with any of them ("Order {soup}" reads "can I get
///   tomato soup").
/// - A slot next to an optional one may swap places with it (a modifier before or after
///   what it modifies).
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
        /// The key templates and matches use for it.
        let key: IntentKey
    }

    let entries: [Entry]
    let templates: [SentenceFile.Template]
    let main: LanguageGrammar.Compiled
    let verbified: LanguageGrammar.Compiled
    /// Enum lexicons by slot parameter (`slotName`: "#0.soup").
    let enumerations: [String: PhraseLexicon]
    /// The lexicons of `enumerations` by the first word of each of their phrases (`SlotOracle.valueStart`).
    let valueStartWords: SlotOracle.StartWords

    var isEmpty: Bool { templates.isEmpty }

    /// The entry of a template intent key, if it is a custom one.
    func entry(_ key: IntentKey) -> Entry? {
        guard case .custom(let index) = key, entries.indices.contains(index) else { return nil }
        return entries[index]
    }

    /// The slot a custom intent's parameter fills in templates and captures: "#<entry>.<parameter>".
    static func slotName(_ entry: Int, _ parameter: String) -> String { "#\(entry).\(parameter)" }

    /// The parameter name of a slot parameter ("#0.soup" → "soup").
    static func parameterName(_ slotParameter: String) -> String {
        slotParameter.firstIndex(of: ".").map { String(slotParameter[slotParameter.index(after: $0)...]) } ?? slotParameter
    }

    /// A custom grammar as an image holds it (`CustomGrammar.load`).
    init(
        entries: [Entry], templates: [SentenceFile.Template], main: LanguageGrammar.Compiled, verbified: LanguageGrammar.Compiled,
        enumerations: [String: PhraseLexicon]
    ) {
        self.entries = entries
        self.templates = templates
        var main = main
        var verbified = verbified
        main.bind(enumerations)
        verbified.bind(enumerations)
        self.main = main
        self.verbified = verbified
        self.enumerations = enumerations
        self.valueStartWords = SlotOracle.startWords(enumerations)
    }

    /// - Parameter mentionExtent: the units a mention of an app covers with the words that go
    ///   with it (the parser's own, so phrases and utterances lose the same words).
    init(context: ParserContext, grammar: LanguageGrammar, mentionExtent: (IntentParser.Mention, [MatchUnit]) -> Range<Int>) throws {
        let language = grammar.language
        var entries: [Entry] = []
        var templates: [SentenceFile.Template] = []
        var enumerations: [String: PhraseLexicon] = [:]
        var slotsByIntent: [IntentKey: [String: Automaton.Slot]] = [:]
        func keys(_ text: String) -> [String] { LanguageGrammar.unitKeys(grammar.tokenizer.tokenize(text)) }

        // The verbs of a category (`<category_order>` in common.sentences), compiled to match
        // a phrase's leading words.
        var categoryRules: [String: (name: String, compiled: LanguageGrammar.Compiled)] = [:]
        func categoryRule(_ category: String) throws -> (name: String, compiled: LanguageGrammar.Compiled)? {
            let name = "category_\(category)"
            guard grammar.rules[name] != nil else { return nil }
            if let known = categoryRules[category] { return known }
            let rule = (name: name, compiled: try grammar.compileRule(name))
            categoryRules[category] = rule
            return rule
        }
        for app in context.apps {
            let names = Set(app.allNames.map { IntentParser.compact(TextNormalizer.key($0)) })
            for intent in app.customIntents {
                guard var phrases = intent.phrases[language], !phrases.isEmpty else { continue }
                let declared = phrases.count
                // The title ("Order soup") names the request without its values.
                if let title = intent.title[language], CustomIntent.slots(in: title).isEmpty,
                    !title.contains(where: { "[]()|<>{}".contains($0) })
                {
                    phrases.append(title)
                }
                let key = IntentKey.custom(entries.count)
                entries.append(Entry(app: app, intent: intent, key: key))
                var slots: [String: Automaton.Slot] = [:]
                for p in intent.parameters {
                    let slotName = Self.slotName(entries.count - 1, p.name)
                    switch p.type {
                    case .enum, .boolean:
                        var lexicon = PhraseLexicon()
                        for c in p.cases {
                            for name in c.names[language] ?? [] { lexicon.insert(keys(name), value: c.id) }
                        }
                        // Short forms and plurals after every name, so that they never hide a name.
                        for c in p.cases {
                            for form in p.saidForms(of: c, language: language) { lexicon.insert(keys(form), value: c.id) }
                        }
                        if lexicon.longest > 0 {
                            enumerations[slotName] = lexicon
                            slots[p.name] = Automaton.Slot(parameter: slotName, kind: .enumeration)
                        }
                    case .integer, .decimal:
                        slots[p.name] = Automaton.Slot(parameter: slotName, kind: .entity(["number"]))
                    case .string:
                        slots[p.name] = Automaton.Slot(
                            parameter: slotName,
                            kind: .free(maxLength: 8, list: p.list, vocabulary: nil, perToken: MatchScores.stringToken, names: false))
                    case .object:
                        slots[p.name] = Automaton.Slot(
                            parameter: slotName,
                            kind: .free(
                                maxLength: 8, list: p.list, vocabulary: p.vocabulary, perToken: MatchScores.stringToken, names: false))
                    }
                }
                slotsByIntent[key] = slots
                var seen: [(TemplatePattern, Bool)] = []
                let verbs = try intent.category.flatMap { try categoryRule($0) }
                for (n, phrase) in phrases.enumerated() {
                    let source =
                        n < declared
                        ? "\(app.name) \(intent.name) phrases.\(language)[\(n)]" : "\(app.name) \(intent.name) title.\(language)"
                    let pattern: TemplatePattern
                    do { pattern = try TemplateExpressionParser.parse(phrase, file: source, line: 1) } catch {
                        throw GrammarError.file(source, (error as? TemplateSyntaxError)?.message ?? "\(error)")
                    }
                    for slot in CustomIntent.slots(in: phrase) where slots[slot] == nil {
                        let p = intent.parameter(slot)
                        let why = p?.type == .boolean || p?.type == .enum ? "its cases have no \(language) names" : "it is not a parameter"
                        throw GrammarError.file(source, "{\(slot)} cannot be matched: \(why)")
                    }
                    for (said, verbified) in Self.readings(
                        pattern, appNames: names, app: app, keys: keys, verbs: verbs, mentionExtent: mentionExtent)
                    {
                        // A number or an enum the intent does not require may go unsaid ("order
                        // tomato soups", "order a latte" for "order a {size} {drink}").
                        var items = said.map { item -> TemplatePattern in
                            guard case .slot(let name) = item, let p = intent.parameter(name), !p.required,
                                [.integer, .decimal, .enum].contains(p.type)
                            else { return item }
                            return .optional(item)
                        }
                        guard items.contains(where: { if case .optional = $0 { false } else { true } }) else { continue }
                        // A modifier next to what it modifies may stand on either side ("un
                        // {drink} {size}": "un café au lait moyen", "un grand café au lait").
                        var i = 0
                        while i + 1 < items.count {
                            if Self.isOptionalSlot(items[i]) != Self.isOptionalSlot(items[i + 1]), Self.isSlot(items[i]),
                                Self.isSlot(items[i + 1])
                            {
                                items.replaceSubrange(
                                    i...(i + 1),
                                    with: [.alternatives([.sequence([items[i], items[i + 1]]), .sequence([items[i + 1], items[i]])])])
                            }
                            i += 1
                        }
                        // An article or a measure may stand before an item ("order a tomato soup",
                        // "three bowls of chicken soup": the language's <item_article>).
                        if grammar.rules["item_article"] != nil {
                            items = items.map {
                                Self.withArticles($0) { intent.parameter($0).map { $0.type == .enum || $0.type == .object } ?? false }
                            }
                        }
                        let pattern = items.count == 1 ? items[0] : .sequence(items)
                        guard !seen.contains(where: { $0.0 == pattern && $0.1 == verbified }) else { continue }
                        seen.append((pattern, verbified))
                        templates.append(
                            SentenceFile.Template(intent: key, pattern: pattern, fixed: [], verbified: verbified, source: source))
                    }
                }
            }
        }
        self.entries = entries
        self.templates = templates
        self.enumerations = enumerations
        self.valueStartWords = SlotOracle.startWords(enumerations)
        var builder = grammar.makeBuilder()
        let compile = { (verbified: Bool, builder: inout AutomatonBuilder) throws -> LanguageGrammar.Compiled in
            try LanguageGrammar.compile(templates, verbified: verbified, language: language, builder: &builder) { template in
                let slots = slotsByIntent[template.intent] ?? [:]
                return { name in slots[name] }
            }
        }
        var main = try compile(false, &builder)
        var verbified = try compile(true, &builder)
        main.bind(enumerations)
        verbified.bind(enumerations)
        self.main = main
        self.verbified = verbified
    }

    /// The item with an optional `<item_article>` before each slot `takesArticle` accepts.
    static func withArticles(_ item: TemplatePattern, _ takesArticle: (String) -> Bool) -> TemplatePattern {
        switch item {
        case .slot(let name) where takesArticle(name): .sequence([.optional(.rule("item_article")), item])
        case .optional(let inner): .optional(withArticles(inner, takesArticle))
        case .sequence(let list): .sequence(list.map { withArticles($0, takesArticle) })
        case .alternatives(let list): .alternatives(list.map { withArticles($0, takesArticle) })
        default: item
        }
    }

    static func isSlot(_ item: TemplatePattern) -> Bool {
        if case .slot = item { return true }
        return isOptionalSlot(item)
    }

    static func isOptionalSlot(_ item: TemplatePattern) -> Bool {
        if case .optional(.slot) = item { return true }
        return false
    }

    /// The templates a phrase gives, as top-level items, each with whether it is verbified:
    /// the phrase without the app's mention; the same with its verb replaced by the verbs of
    /// the intent's category (`verbs`: when the phrase's own leading words are among them);
    /// and without its verb, for the verbified use.
    static func readings(
        _ pattern: TemplatePattern, appNames: Set<String>, app: AppDefinition, keys: (String) -> [String],
        verbs: (name: String, compiled: LanguageGrammar.Compiled)?, mentionExtent: (IntentParser.Mention, [MatchUnit]) -> Range<Int>
    ) -> [([TemplatePattern], Bool)] {
        var items: [TemplatePattern]
        if case .sequence(let list) = pattern { items = list } else { items = [pattern] }
        // Units as the parser would see them; anything but a plain word is one opaque unit.
        func units(_ items: [TemplatePattern]) -> (units: [MatchUnit], owner: [Int]) {
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
            return (units, owner)
        }
        var leading = false
        let (all, owner) = units(items)
        search: for start in all.indices {
            for length in stride(from: min(4, all.count - start), through: 1, by: -1) {
                let range = start..<(start + length)
                guard appNames.contains(IntentParser.compact(all[range].map(\.key).joined())) else { continue }
                let extent = mentionExtent(IntentParser.Mention(app: app, range: range, said: app.name), all)
                let removed = Set(extent.map { owner[$0] })
                leading = extent.lowerBound == 0
                items = items.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
                break search
            }
        }
        guard !items.isEmpty else { return [] }
        var result: [([TemplatePattern], Bool)] = [(items, leading)]
        // The phrase's verb: its longest run of leading words the category's verbs say.
        var verbLength = 0
        if let verbs, !leading {
            let (rest, owner) = units(items)
            let oracle = SlotOracle(
                units: rest, entities: [:], vocabularies: [:], binding: SlotBinding(), app: nil)
            let matcher = AutomatonMatcher(automaton: verbs.compiled.shared, oracle: oracle)
            for end in stride(from: min(6, rest.count - 1), through: 1, by: -1) where rest[end - 1].key != "\u{1}" {
                guard owner[end - 1] != owner[end],
                    matcher.accepts(start: verbs.compiled.start, from: 0, to: end)
                else { continue }
                verbLength = owner[end - 1] + 1
                break
            }
            if verbLength > 0 { result.append(([.rule(verbs.name)] + items[verbLength...], false)) }
        }
        // The app's name as the verb: the phrase without its verb (or first word), when a slot follows.
        let verbWords = max(verbLength, 1)
        if !leading, items.count > verbWords, items.prefix(verbWords).allSatisfy({ if case .word = $0 { true } else { false } }),
            items.dropFirst(verbWords).contains(where: { if case .slot = $0 { true } else { false } })
        {
            result.append((Array(items.dropFirst(verbWords)), true))
        }
        return result
    }
}

extension CustomGrammar {
    /// The context's custom intents compiled for `grammar`, read from their compiled image
    /// when the cache has one for these intents and this grammar's sources, else built and
    /// written. A context without custom intents builds at once (there is nothing to compile).
    static func load(
        context: ParserContext, grammar: LanguageGrammar, catalogue: IntentCatalogue,
        mentionExtent: (IntentParser.Mention, [MatchUnit]) -> Range<Int>
    ) throws -> CustomGrammar {
        let apps = context.apps.filter { !$0.customIntents.isEmpty }
        guard !apps.isEmpty else { return try CustomGrammar(context: context, grammar: grammar, mentionExtent: mentionExtent) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var fingerprint = catalogue.fingerprint
        for app in apps {
            fingerprint += "|\(app.name)|\(app.allNames.joined(separator: ","))|"
            fingerprint += (try? encoder.encode(app.customIntents)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        }
        // Each context's custom intents have their own image (a variant): a server's contexts
        // never replace one another's.
        let loaded = try ImageCache.load(
            "custom", language: grammar.language, variant: ImageCache.variant(of: fingerprint),
            sources: LanguageGrammar.sources(language: grammar.language, directory: nil), extra: fingerprint
        ) {
            CustomImage(grammar: try CustomGrammar(context: context, grammar: grammar, mentionExtent: mentionExtent))
        }.value
        if let built = loaded.grammar { return built }
        guard let fields = loaded.fields else { throw GrammarError.missing(grammar.language) }
        // The entries, found again in the context by app and intent name.
        var entries: [Entry] = []
        for (n, (appName, intentName)) in fields.entries.enumerated() {
            guard let app = apps.first(where: { $0.name == appName }),
                let intent = app.customIntents.first(where: { $0.name == intentName })
            else {
                // Not this context's intents after all (a hash collision): build.
                return try CustomGrammar(context: context, grammar: grammar, mentionExtent: mentionExtent)
            }
            entries.append(Entry(app: app, intent: intent, key: .custom(n)))
        }
        return CustomGrammar(
            entries: entries, templates: fields.templates, main: fields.main, verbified: fields.verbified, enumerations: fields.enumerations
        )
    }
}

/// A custom grammar on its way to or from an image; its entries by app and intent name.
struct CustomImage: ImageCodable {
    struct Fields {
        var entries: [(String, String)]
        var templates: [SentenceFile.Template]
        var main: LanguageGrammar.Compiled
        var verbified: LanguageGrammar.Compiled
        var enumerations: [String: PhraseLexicon]
    }

    var grammar: CustomGrammar?
    var fields: Fields?

    init(grammar: CustomGrammar) { self.grammar = grammar }

    func write(to image: inout ImageWriter) {
        guard let grammar else { return }
        image.write(grammar.entries.map(\.app.name))
        image.write(grammar.entries.map(\.intent.name))
        image.write(grammar.templates)
        image.write(grammar.main)
        image.write(grammar.verbified)
        image.write(grammar.enumerations)
    }

    init(from image: inout ImageReader) throws(ImageError) {
        let apps = try image.read([String].self)
        let intents = try image.read([String].self)
        guard apps.count == intents.count else { throw ImageError("custom entries do not pair") }
        let templates = try image.read([SentenceFile.Template].self)
        let main = try image.read(LanguageGrammar.Compiled.self)
        let verbified = try image.read(LanguageGrammar.Compiled.self)

        fields = Fields(
            entries: Array(zip(apps, intents)), templates: templates, main: main, verbified: verbified,
            enumerations: try image.read([String: PhraseLexicon].self))
    }
}
