import Foundation
import ParlanceContext
import ParlanceICU
import ParlanceText

/// One language's intent grammar: its `.sentences` files compiled into automata, and its
/// enum value lexicon (`values.json`). Built once per language; immutable.
final class LanguageGrammar: Sendable {
    /// The `.sentences` files of a language folder, found on disk (a domain is added with files
    /// only): `common` first (the shared rules), then the others by name.
    static func sentenceFiles(in folder: URL) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sentences") }.map {
            String($0.dropLast(".sentences".count))
        }
        guard names.contains("common") else {
            throw GrammarError.file("\(folder.lastPathComponent)/common.sentences", "the file is missing")
        }
        return ["common"] + names.filter { $0 != "common" }.sorted()
    }

    struct Compiled: Sendable {
        /// The automaton, behind one reference (`SharedAutomaton`).
        let shared: SharedAutomaton
        var automaton: Automaton { shared.automaton }
        var start: Int
        /// Accepting states and the intent each accepts. The automaton keeps only these
        /// states as ends, so every state a match returns is one of them.
        let accepting: [Int: IntentKey]

        /// The automaton's slots bound to the grammar's enum lexicons (`bind`).
        private(set) var binding = SlotBinding()

        /// Binds the slots to `enumerations`, each slot's parameter's lexicon (`SlotBinding`).
        mutating func bind(_ enumerations: [String: PhraseLexicon]) { binding = SlotBinding(automaton.slots, enumerations: enumerations) }

        /// Closes `automaton` (see `Automaton.close`).
        init(automaton: Automaton, start: Int, accepting: [Int: IntentKey]) {
            var automaton = automaton
            automaton.close(start: start, accepting: Set(accepting.keys))
            self.shared = SharedAutomaton(automaton)
            self.start = start
            self.accepting = accepting
        }

        /// An automaton closed already (read from an image).
        init(closed automaton: Automaton, start: Int, accepting: [Int: IntentKey]) {
            self.shared = SharedAutomaton(automaton)
            self.start = start
            self.accepting = accepting
        }

        /// A rule compiled alone (the mention rule, a category's verbs): one accepting state, no intent.
        init(automaton: Automaton, start: Int, end: Int) {
            var automaton = automaton
            automaton.close(start: start, accepting: [end])
            self.shared = SharedAutomaton(automaton)
            self.start = start
            self.accepting = [:]
        }
    }

    let language: String
    /// The templates without their patterns (`pattern` is an empty sequence when read from an
    /// image): what a match needs of them (intent, fixed values, source). Same indices as
    /// `templates`.
    let heads: [SentenceFile.Template]
    /// The templates with their patterns, and the rules: read from the image on first use (the
    /// training generators and custom intents need them; parsing does not).
    private let patterns: PatternSource
    var templates: [SentenceFile.Template] { patterns.parts.templates }
    var rules: [String: TemplatePattern] { patterns.parts.rules }
    let main: Compiled
    let verbified: Compiled
    let mention: Compiled
    /// `<mention_verb>`: the app addressed as the one to do it ("ask Soup Chef for"), after
    /// which the request has no verb of its own (optional rule).
    let mentionVerb: Compiled?
    /// `<prefix>` and `<suffix>` on their own (what may come before and after a shortcut's phrase).
    let prefixRule: Compiled
    let suffixRule: Compiled
    let enumerations: [String: PhraseLexicon]
    /// The lexicons of `enumerations` by the first word of each of their phrases (`SlotOracle.valueStart`).
    let valueStartWords: SlotOracle.StartWords
    /// Words that imply an enum value anywhere in a request of an intent with that parameter
    /// ("who called me" → callTypes received), by parameter (`lexicon.json` "cues").
    let cues: [String: Cues]
    /// Phrases that say a reminder fires on arriving at or leaving the place after them ("when
    /// I get", "cuando salga de"), by event (`lexicon.json` "triggers").
    let triggers: PhraseLexicon
    /// Phrases that say a number of people ("me and my wife" → 2), by integer parameter
    /// (`lexicon.json` "counts").
    let counts: [String: PhraseLexicon]
    /// Words that name a kind of item, by vocabulary type ("list", "note" for notebookItemTitle;
    /// "account" for paymentsAccountNickname): said right after the item's name, they belong to
    /// it ("shopping list", "joint account"), as `Corpora/ANNOTATION.md` annotates
    /// (`lexicon.json` "headWords").
    let headWords: [String: Set<String>]
    /// Words that name a kind of item said before its name with a linking word ("nota" and "del"
    /// for notebookItemTitle in Spanish): "la nota del viaje" → "nota del viaje", as
    /// `Corpora/ANNOTATION.md` annotates (`lexicon.json` "leadingHeadWords", by vocabulary type).
    let leadingHeadWords: [String: LeadingHeadWords]
    /// Linking words inside a name ("de" in "El Rincón de Pepe", "da" in "Trattoria da Gino"):
    /// two values of a one-value parameter with one of these alone between them are one name
    /// (`lexicon.json` "nameLinks").
    let nameLinks: PhraseSet
    /// Hesitations and discourse words that are never part of a value ("um", "euh", "ähm").
    let fillers: Set<String>
    /// Words of the wake phrase ("hey", "siri", "oye"): what may come before a request.
    let wakeWords: Set<String>
    /// Possessive endings written as a word of their own ("'s" of "Marta's").
    let possessives: Set<String>
    /// Phrases that open a request of another kind ("remind me", "set an alarm").
    let elsewhere: PhraseSet
    /// Per domain, what puts a request outside it, said anywhere but in a value of free text
    /// (`lexicon.json` "outside": a playlist is no list of tasks), or a verb and the particle
    /// that ends its clause ("schick … zurück": sending back is no message).
    let outside: [String: OutsideWords]
    /// Phrases that open a clause saying not to do something ("don't", "no", "ne", "non",
    /// "não"), and the words that make such a clause a request all the same ("don't forget",
    /// "non … più"): `lexicon.json` "negations".
    let negations: Negations
    let conjunctions: Set<String>
    let notNames: Set<String>
    /// `conjunctions` and `notNames` in one table the matcher reads once per unit.
    let wordClasses: WordClasses
    /// Every word the templates and their rules say ("send", "list", "anfordern"): the words a
    /// request is told by, as against the items and names it carries.
    let templateWords: Set<String>
    let capitalizedNouns: Bool
    /// The language's common vocabulary by type (e.g. workout activities), used with the context's.
    let vocabulary: [String: [String]]
    /// What the parser adds to the context's vocabularies, as unit keys, worked out once: the
    /// common vocabulary by type, and (for contactName) the user's words for people ("my mom":
    /// `names.json` relations after its possessives); the language's titles with their article
    /// ("la doctora"); and the one-word titles and particles of every language ("dr", "jr"), after
    /// which a "." is no sentence's end.
    let vocabularyKeys: [String: [[String]]]
    let titlePhraseKeys: [[String]]
    let titleWords: Set<String>
    let tokenizer: Tokenizer

    /// The grammar folder: the bundled one, or `PARLANCE_GRAMMAR_DIR` when set (for grammar
    /// authors: edit the `.sentences` files and try them without rebuilding).
    static var directory: URL? {
        if let override = ProcessInfo.processInfo.environment["PARLANCE_GRAMMAR_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return Bundle.module.url(forResource: "Languages", withExtension: nil, subdirectory: "Grammar")
    }

    /// A language's example requests by catalogue intent (`<language>/examples.json`, `{app}`
    /// standing for the app's name), as `parlance examples` lists them.
    static func examples(language: String, directory: URL? = nil) throws -> [String: [String]] {
        guard let url = (directory ?? LanguageGrammar.directory)?.appendingPathComponent(language).appendingPathComponent("examples.json")
        else { throw GrammarError.missing(language) }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw GrammarError.file("\(language)/examples.json", "cannot read the file") }
        do { return try JSONGuard.decode([String: [String]].self, from: data) } catch let error as DecodingError {
            throw GrammarError.file("\(language)/examples.json", LanguageResources.describe(error))
        } catch { throw GrammarError.file("\(language)/examples.json", "\(error)") }
    }

    /// The languages that have an intent grammar.
    static let availableLanguages: [String] = {
        guard let directory, let entries = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return entries.filter { !$0.hasPrefix(".") }.sorted()
    }()

    /// - Parameter directory: the folder of language folders (default: the bundle's, or
    ///   `PARLANCE_GRAMMAR_DIR`).
    init(language: String, catalogue: IntentCatalogue, tokenizer: Tokenizer, directory: URL? = nil) throws {
        self.language = language
        self.tokenizer = tokenizer
        guard let folder = (directory ?? LanguageGrammar.directory)?.appendingPathComponent(language) else {
            throw GrammarError.missing(language)
        }
        var rules: [String: TemplatePattern] = [:]
        var templates: [SentenceFile.Template] = []
        let files: [String]
        do { files = try LanguageGrammar.sentenceFiles(in: folder) } catch let error as GrammarError { throw error } catch {
            throw GrammarError.file(language, "cannot list the grammar folder: \(error)")
        }
        for name in files {
            let url = folder.appendingPathComponent("\(name).sentences")
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw GrammarError.file("\(language)/\(name).sentences", "cannot read the file")
            }
            let file = try SentenceFile.parse(text, file: "\(language)/\(name).sentences")
            for (rule, pattern) in file.rules {
                guard rules[rule] == nil else {
                    throw GrammarError.file("\(language)/\(name).sentences", "rule <\(rule)> is defined twice")
                }
                rules[rule] = pattern
            }
            templates += file.templates
        }
        for required in ["prefix", "suffix", "mention", "and"] where rules[required] == nil {
            throw GrammarError.file("\(language)/common.sentences", "the rule <\(required)> is required")
        }
        self.heads = templates
        self.patterns = PatternSource(templates: templates, rules: rules)

        // Each template word tokenized once: a grammar says "the" or "message" thousands of times.
        var tokenized: [String: [String]] = [:]
        func keys(_ word: String) -> [String] {
            if let known = tokenized[word] { return known }
            let keys = LanguageGrammar.unitKeys(tokenizer.tokenize(word))
            tokenized[word] = keys
            return keys
        }
        var builder = AutomatonBuilder(rules: rules, keys: keys)

        func compile(verbified: Bool) throws -> Compiled {
            try LanguageGrammar.compile(templates, verbified: verbified, language: language, builder: &builder) { template in
                guard let spec = template.intent.catalogueName.flatMap({ catalogue.intent($0) }) else {
                    throw GrammarError.file(template.source, "unknown intent '\(template.intent)'")
                }
                for (parameter, value) in template.fixed {
                    guard let p = spec.parameter(parameter), p.type == .boolean || (p.values ?? []).contains(value) else {
                        throw GrammarError.file(template.source, "\(spec.name) has no value \(parameter)=\(value)")
                    }
                }
                return { name in LanguageGrammar.slot(name, spec) }
            }
        }
        var main = try compile(verbified: false)
        var verbified = try compile(verbified: true)

        func compileMention(_ rule: String) throws -> Compiled {
            builder.automaton = Automaton()
            let start = builder.automaton.newState()
            let end = builder.automaton.newState()
            builder.source = "\(language)/common.sentences <\(rule)>"
            builder.slot = { name in name == "app" ? Automaton.Slot(parameter: "app", kind: .app) : nil }
            try builder.add(.rule(rule), from: start, to: end)
            return Compiled(automaton: builder.automaton, start: start, end: end)
        }
        self.templateWords = Set(tokenized.values.joined())
        self.mention = try compileMention("mention")
        self.mentionVerb = rules["mention_verb"] == nil ? nil : try compileMention("mention_verb")
        self.prefixRule = try LanguageGrammar.compileRule("prefix", language: language, builder: &builder)
        self.suffixRule = try LanguageGrammar.compileRule("suffix", language: language, builder: &builder)

        // Conjunctions: the grammar's <and> rule plus the one ICU's list patterns use.
        var conjunctions = Set<String>()
        LanguageGrammar.collectWords(rules["and"]!, into: &conjunctions, keys: keys)
        self.conjunctions = conjunctions

        let lexiconURL = folder.appendingPathComponent("lexicon.json")
        let lexicon: LexiconFile
        do {
            lexicon = try JSONGuard.decode(LexiconFile.self, from: Data(contentsOf: lexiconURL))
        } catch let error as DecodingError {
            throw GrammarError.file("\(language)/lexicon.json", LanguageResources.describe(error))
        } catch {
            throw GrammarError.file("\(language)/lexicon.json", "\(error)")
        }
        var enumerations: [String: PhraseLexicon] = [:]
        for (parameter, cases) in lexicon.values {
            let known = Set(
                catalogue.intents.flatMap(\.parameters).filter { $0.name == parameter }.flatMap {
                    $0.type == .boolean ? ["true", "false"] : $0.values ?? []
                })
            var phrases = PhraseLexicon()
            for (value, list) in cases {
                guard known.contains(value) else {
                    throw GrammarError.file("\(language)/lexicon.json", "\(parameter) has no value '\(value)' in the catalogue")
                }
                for phrase in list { phrases.insert(keys(phrase), value: value) }
            }
            enumerations[parameter] = phrases
        }
        var cues: [String: Cues] = [:]
        for (parameter, cases) in lexicon.cues ?? [:] {
            let known = Set(
                catalogue.intents.flatMap(\.parameters).filter { $0.name == parameter && $0.type == .enum }.flatMap { $0.values ?? [] })
            var set = Cues()
            for (value, list) in cases {
                guard known.contains(value) else {
                    throw GrammarError.file(
                        "\(language)/lexicon.json", "cues: \(parameter) is not an enum parameter with a value '\(value)' in the catalogue")
                }
                for phrase in list {
                    if phrase.hasSuffix(Cues.personMarker) {
                        set.beforePerson.insert(keys(String(phrase.dropLast(Cues.personMarker.count))), value: value)
                    } else {
                        set.anywhere.insert(keys(phrase), value: value)
                    }
                }
            }
            cues[parameter] = set
        }
        self.cues = cues
        var triggers = PhraseLexicon()
        for (event, list) in lexicon.triggers ?? [:] {
            guard SpatialTrigger.Event(rawValue: event) != nil else {
                throw GrammarError.file("\(language)/lexicon.json", "triggers: '\(event)' is not arrive or depart")
            }
            for phrase in list { triggers.insert(keys(phrase), value: event) }
        }
        self.triggers = triggers
        var counts: [String: PhraseLexicon] = [:]
        for (parameter, numbers) in lexicon.counts ?? [:] {
            guard catalogue.intents.flatMap(\.parameters).contains(where: { $0.name == parameter && $0.type == .integer }) else {
                throw GrammarError.file("\(language)/lexicon.json", "counts: \(parameter) is not an integer parameter of the catalogue")
            }
            var set = PhraseLexicon()
            for (number, list) in numbers {
                guard Int(number) != nil else {
                    throw GrammarError.file("\(language)/lexicon.json", "counts: \(parameter): '\(number)' is not a whole number")
                }
                for phrase in list { set.insert(keys(phrase), value: number) }
            }
            counts[parameter] = set
        }
        self.counts = counts
        var headWords: [String: Set<String>] = [:]
        for (type, words) in lexicon.headWords ?? [:] {
            guard catalogue.vocabularyTypes.contains(type) else {
                throw GrammarError.file("\(language)/lexicon.json", "headWords: '\(type)' is not a vocabulary type of the catalogue")
            }
            headWords[type] = Set(words.flatMap(keys))
        }
        self.headWords = headWords
        var leadingHeadWords: [String: LeadingHeadWords] = [:]
        for (type, entry) in lexicon.leadingHeadWords ?? [:] {
            guard catalogue.vocabularyTypes.contains(type) else {
                throw GrammarError.file("\(language)/lexicon.json", "leadingHeadWords: '\(type)' is not a vocabulary type of the catalogue")
            }
            guard !entry.heads.isEmpty, !entry.links.isEmpty else {
                throw GrammarError.file("\(language)/lexicon.json", "leadingHeadWords: '\(type)' needs heads and links")
            }
            var links = PhraseSet()
            for link in entry.links { links.insert(keys(link)) }
            leadingHeadWords[type] = LeadingHeadWords(heads: Set(entry.heads.flatMap(keys)), links: links)
        }
        self.leadingHeadWords = leadingHeadWords
        var nameLinks = PhraseSet()
        for link in lexicon.nameLinks ?? [] { nameLinks.insert(keys(link)) }
        self.nameLinks = nameLinks
        var fillers = Set<String>()
        for filler in lexicon.fillers ?? [] {
            let words = keys(filler)
            guard words.count == 1 else { throw GrammarError.file("\(language)/lexicon.json", "fillers: '\(filler)' is not one word") }
            fillers.insert(words[0])
        }
        self.fillers = fillers
        self.wakeWords = Set((lexicon.wakeWords ?? []).flatMap(keys))
        self.possessives = Set(lexicon.possessives ?? [])
        var elsewhere = PhraseSet()
        for phrase in lexicon.elsewhere ?? [] { elsewhere.insert(keys(phrase)) }
        self.elsewhere = elsewhere
        var outside: [String: OutsideWords] = [:]
        for (domain, entries) in lexicon.outside ?? [:] {
            var words = OutsideWords()
            for entry in entries {
                if entry.contains("…") {
                    let parts = entry.components(separatedBy: "…").map { keys($0.trimmingCharacters(in: .whitespaces)) }
                    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                        throw GrammarError.file(
                            "\(language)/lexicon.json", "outside: '\(entry)': a verb and its particle are 'verb … particle', both said")
                    }
                    words.frames.append(OutsideWords.Frame(opening: parts[0], closing: parts[1]))
                } else if entry.hasPrefix("*") {
                    let ending = TextNormalizer.key(String(entry.dropFirst()))
                    guard !ending.isEmpty, !ending.contains(" ") else {
                        throw GrammarError.file("\(language)/lexicon.json", "outside: '\(entry)': a word ending is one word after '*'")
                    }
                    words.endings.append(ending)
                } else {
                    words.phrases.insert(keys(entry))
                }
            }
            outside[domain] = words
        }
        self.outside = outside
        var negations = Negations()
        for phrase in lexicon.negations?.phrases ?? [] { negations.phrases.insert(keys(phrase)) }
        for phrase in lexicon.negations?.unless ?? [] { negations.unless.insert(keys(phrase)) }
        self.negations = negations
        self.notNames = Set(lexicon.notNames.flatMap(keys))
        self.wordClasses = WordClasses(conjunctions: conjunctions, notNames: notNames)
        self.capitalizedNouns = lexicon.capitalizedNouns ?? false
        self.vocabulary = lexicon.vocabulary
        self.enumerations = enumerations
        self.valueStartWords = SlotOracle.startWords(enumerations)
        main.bind(enumerations)
        verbified.bind(enumerations)
        self.main = main
        self.verbified = verbified
        let names = try? NameKnowledge.shared.get()
        func unitKeys(_ phrase: String) -> [String] { LanguageGrammar.unitKeys(tokenizer.tokenize(phrase)) }
        var vocabularyKeys = lexicon.vocabulary.mapValues { $0.map(unitKeys) }
        vocabularyKeys["contactName", default: []] += (names?.relationPhrases(language: language) ?? []).map(unitKeys)
        self.vocabularyKeys = vocabularyKeys
        self.titlePhraseKeys = (names?.titlePhrases(language: language) ?? []).map(unitKeys)
        self.titleWords = names?.titleWords ?? []
    }

    /// The grammar an image holds (`GrammarImage`), with the language's tokenizer.
    init(fields: ImageFields, tokenizer: Tokenizer) {
        self.language = fields.language
        self.tokenizer = tokenizer
        self.heads = fields.heads
        self.patterns = fields.patterns
        var main = fields.main
        var verbified = fields.verbified
        main.bind(fields.enumerations)
        verbified.bind(fields.enumerations)
        self.main = main
        self.verbified = verbified
        self.mention = fields.mention
        self.mentionVerb = fields.mentionVerb
        self.prefixRule = fields.prefixRule
        self.suffixRule = fields.suffixRule
        self.enumerations = fields.enumerations
        self.valueStartWords = SlotOracle.startWords(fields.enumerations)
        self.cues = fields.cues
        self.triggers = fields.triggers
        self.counts = fields.counts
        self.headWords = fields.headWords
        self.leadingHeadWords = fields.leadingHeadWords
        self.nameLinks = fields.nameLinks
        self.fillers = fields.fillers
        self.wakeWords = fields.wakeWords
        self.possessives = fields.possessives
        self.elsewhere = fields.elsewhere
        self.outside = fields.outside
        self.negations = fields.negations
        self.conjunctions = fields.conjunctions
        self.notNames = fields.notNames
        self.wordClasses = WordClasses(conjunctions: fields.conjunctions, notNames: fields.notNames)
        self.templateWords = fields.templateWords
        self.capitalizedNouns = fields.capitalizedNouns
        self.vocabulary = fields.vocabulary
        self.vocabularyKeys = fields.vocabularyKeys
        self.titlePhraseKeys = fields.titlePhraseKeys
        self.titleWords = fields.titleWords
    }

    /// A fresh builder over this grammar's rules and tokenizer.
    func makeBuilder() -> AutomatonBuilder {
        let tokenizer = self.tokenizer
        return AutomatonBuilder(rules: rules, keys: { LanguageGrammar.unitKeys(tokenizer.tokenize($0)) })
    }

    /// One rule of the grammar on its own, accepting what it matches (`<prefix>`,
    /// `<category_order>`); slots in it are left out.
    func compileRule(_ name: String) throws -> Compiled {
        var builder = makeBuilder()
        return try LanguageGrammar.compileRule(name, language: language, builder: &builder)
    }

    /// `compileRule(_:)` on a given builder (its words' keys reused), which it resets first.
    static func compileRule(_ name: String, language: String, builder: inout AutomatonBuilder) throws -> Compiled {
        builder.automaton = Automaton()
        builder.slot = { _ in nil }
        builder.fillers = false
        let start = builder.automaton.newState()
        let end = builder.automaton.newState()
        builder.source = "\(language)/*.sentences <\(name)>"
        try builder.add(.rule(name), from: start, to: end)
        return Compiled(automaton: builder.automaton, start: start, end: end)
    }

    /// Compiles the templates (the verbified ones, or the others) into one automaton:
    /// `<prefix>`, then any template, then its intent's `<suffix>`. `slots` checks a template
    /// and says what its `{slots}` match.
    static func compile(
        _ templates: [SentenceFile.Template], verbified: Bool, language: String, builder: inout AutomatonBuilder,
        slots: (SentenceFile.Template) throws -> (String) -> Automaton.Slot?
    ) throws -> Compiled {
        builder.automaton = Automaton()
        let start = builder.automaton.newState()
        let hub = builder.automaton.newState()
        builder.source = "\(language)/common.sentences <prefix>"
        try builder.add(.rule("prefix"), from: start, to: hub)
        var ends: [IntentKey: Int] = [:]
        var accepting: [Int: IntentKey] = [:]
        for (index, template) in templates.enumerated() where template.verbified == verbified {
            let slot = try slots(template)
            if ends[template.intent] == nil {
                let end = builder.automaton.newState()
                let final = builder.automaton.newState()
                builder.source = "\(language)/common.sentences <suffix>"
                builder.fillers = true
                try builder.add(.rule("suffix"), from: end, to: final)
                builder.fillers = false
                ends[template.intent] = end
                accepting[final] = template.intent
            }
            let templateEnd = builder.automaton.newState()
            builder.source = template.source
            builder.slot = slot
            do {
                try builder.add(template.pattern, from: hub, to: templateEnd)
            } catch let error as TemplateSyntaxError {
                throw GrammarError.file(template.source, error.message)
            }
            builder.automaton.connect(templateEnd, .accept(index), ends[template.intent]!)
        }
        return Compiled(automaton: builder.automaton, start: start, accepting: accepting)
    }

    /// Cue phrases of one enum parameter: anywhere, or only right before a person's name.
    struct Cues: Sendable {
        static let personMarker = " {person}"
        var anywhere = PhraseLexicon()
        var beforePerson = PhraseLexicon()
    }

    /// `lexicon.json` "leadingHeadWords" of one vocabulary type, as written.
    struct LeadingHeadWordsEntry: Decodable {
        /// Single words ("nota", "lista").
        var heads: [String]
        /// Phrases between the head word and the name ("de", "del", "de la").
        var links: [String]
    }

    /// Head words said before a name with a linking word, as unit keys.
    struct LeadingHeadWords: Sendable {
        let heads: Set<String>
        let links: PhraseSet
    }

    /// `lexicon.json`: enum values in the language's words, words that are never names,
    /// and common vocabulary (workout activities) that any context gets.
    struct LexiconFile: Decodable {
        var values: [String: [String: [String]]]
        /// Parameter → value → phrases that imply it; a phrase ending in " {person}" only
        /// before a person's name ("calls from {person}").
        var cues: [String: [String: [String]]]?
        /// "arrive" / "depart" → phrases before the place of a spatial trigger.
        var triggers: [String: [String]]?
        /// Integer parameter → number → phrases that say it ("partySize": {"2": ["me and my wife"]}).
        var counts: [String: [String: [String]]]?
        /// Vocabulary type → words that name a kind of item, kept with the name said before them.
        var headWords: [String: [String]]?
        /// Vocabulary type → head words said before the name and the words that link them to it.
        var leadingHeadWords: [String: LeadingHeadWordsEntry]?
        /// Linking words inside a name ("de", "del", "da").
        var nameLinks: [String]?
        /// Single words.
        var fillers: [String]?
        var wakeWords: [String]?
        /// Unit keys, as the tokenizer gives them ("'s").
        var possessives: [String]?
        /// Phrases that open a request of another kind ("remind me", "set an alarm").
        var elsewhere: [String]?
        /// Domain → phrases that put a request outside it; "*word": a word ending so (a compound);
        /// "verb … particle": the verb opening a clause that the particle ends.
        var outside: [String: [String]]?
        /// Phrases that open a clause saying not to do something, and words that make it a request.
        var negations: NegationsEntry?
        var notNames: [String]
        var vocabulary: [String: [String]]
        /// The language capitalizes every noun (German): capitals say nothing about names.
        var capitalizedNouns: Bool?
    }

    /// The keys of the units templates see: every token but punctuation other than ":".
    static func unitKeys(_ tokens: [Token]) -> [String] {
        tokens.filter { $0.kind != .punctuation || $0.key == ":" }.map(\.key)
    }

    static func collectWords(_ pattern: TemplatePattern, into set: inout Set<String>, keys: (String) -> [String]) {
        switch pattern {
        case .word(let w): set.formUnion(keys(w))
        case .sequence(let items), .alternatives(let items): for item in items { collectWords(item, into: &set, keys: keys) }
        case .optional(let inner): collectWords(inner, into: &set, keys: keys)
        case .rule, .slot: break
        }
    }

    /// What `{name}` matches in a template of `intent`.
    static func slot(_ name: String, _ intent: IntentSpec) -> Automaton.Slot? {
        if name == "goal", intent.parameter("goalValue") != nil { return Automaton.Slot(parameter: "goal", kind: .goal) }
        // {_}: a few words the request does not need ("mark [the first message] as read").
        if name == "_" {
            return Automaton.Slot(
                parameter: "_", kind: .free(maxLength: 6, list: false, vocabulary: nil, perToken: MatchScores.wildcardToken, names: false))
        }
        guard let p = intent.parameter(name) else { return nil }
        let kind: Automaton.Slot.Kind
        switch p.type {
        case .text: kind = .free(maxLength: 80, list: false, vocabulary: nil, perToken: MatchScores.textToken, names: false)
        case .place: kind = .free(maxLength: 10, list: p.list, vocabulary: p.vocabulary, perToken: MatchScores.placeToken, names: false)
        case .person:
            // Guarded (people in photos): an unknown name is a reluctant reading.
            kind = .free(
                maxLength: 8, list: p.list, vocabulary: p.vocabulary,
                perToken: p.guarded ? MatchScores.guardedToken : MatchScores.unknownNameToken, names: true)
        case .string:
            let perToken: Double? = p.closed ? nil : p.guarded ? MatchScores.guardedToken : MatchScores.stringToken
            kind = .free(maxLength: 8, list: p.list, vocabulary: p.vocabulary, perToken: perToken, names: false)
        case .currencyAmount: kind = .entity(["currencyAmount"])
        case .number, .integer: kind = .entity(["number"])
        case .date: kind = .entity(["date"])
        case .dateRange: kind = .entity(["date", "dateRange"])
        case .dateTime: kind = .entity(["dateTime", "date", "dateRange"])
        case .temporalTrigger: kind = .entity(["recurrence", "dateTime", "date", "dateRange"])
        case .spatialTrigger: kind = .free(maxLength: 6, list: false, vocabulary: nil, perToken: MatchScores.placeToken, names: false)
        case .enum, .boolean: kind = .enumeration
        }
        return Automaton.Slot(parameter: name, kind: kind)
    }
}

/// A language's grammar, gazetteer or trained model that cannot be found or read.
public enum GrammarError: Error, Sendable, CustomStringConvertible {
    /// No intent grammar can be found for the language (the value).
    case missing(String)
    /// A file that cannot be read or is malformed: what it is (a language, a grammar file, a model
    /// file) and what is wrong with it.
    case file(String, String)

    /// A message naming the language or file and the problem.
    public var description: String {
        switch self {
        case .missing(let language): "no intent grammar for '\(language)'"
        case .file(let file, let message): "grammar \(file): \(message)"
        }
    }
}

/// `lexicon.json` "negations".
struct NegationsEntry: Decodable {
    /// Phrases that open a clause saying not to do something ("don't", "do not").
    var phrases: [String]
    /// Words that make such a clause a request all the same: "don't forget to …" asks for a
    /// reminder, "don't … anymore" and "non … più" ask to undo or cancel.
    var unless: [String]
}

/// Clauses that say not to do something (`lexicon.json` "negations").
struct Negations: Sendable {
    var phrases = PhraseSet()
    var unless = PhraseSet()
}

/// What puts a request outside a domain (`lexicon.json` "outside"): phrases, endings of
/// compound words ("*wiedergabeliste": "Partywiedergabeliste"), and verbs whose particle at the
/// end of their clause makes them another verb ("schick … zurück": zurückschicken).
struct OutsideWords: Sendable {
    /// A verb said first in its clause and a particle said last in it.
    struct Frame: Sendable {
        var opening: [String]
        var closing: [String]
    }
    var phrases = PhraseSet()
    var endings: [String] = []
    var frames: [Frame] = []

    /// The units said at `start` that are one of the phrases or end so; nil when none.
    func match(_ keys: [String], at start: Int) -> Int? {
        if let length = phrases.longestMatch(keys, at: start) { return length }
        let key = keys[start]
        let count = key.characterCount
        return endings.contains { count > $0.characterCount && key.hasSuffix($0) } ? 1 : nil
    }
}

/// A grammar's templates with their patterns and its rules: at hand (built), or in an image
/// block read on first use.
final class PatternSource: Sendable {
    struct Parts: Sendable {
        var templates: [SentenceFile.Template]
        var rules: [String: TemplatePattern]
    }

    private let block: ImageBlock?
    private let heads: [SentenceFile.Template]
    private let slot: Locked<Parts?>

    init(templates: [SentenceFile.Template], rules: [String: TemplatePattern]) {
        block = nil
        heads = []
        slot = Locked(Parts(templates: templates, rules: rules))
    }

    /// The patterns of `heads` and the rules, in `block` (`LanguageGrammar.writePatterns`).
    init(block: ImageBlock, heads: [SentenceFile.Template]) {
        self.block = block
        self.heads = heads
        slot = Locked(nil)
    }

    var parts: Parts {
        slot.withLock { slot in
            if let parts = slot { return parts }
            // The block was checked with the whole image (its checksum): reading it cannot
            // fail but for a bug, which would leave the grammar without patterns.
            let read = try? block?.read { (image: inout ImageReader) throws(ImageError) -> Parts in
                let patterns = try image.read([TemplatePattern].self)
                let rules = try image.read([String: TemplatePattern].self)
                guard patterns.count == heads.count else { throw ImageError("patterns and templates differ") }
                var templates = heads
                for n in templates.indices { templates[n].pattern = patterns[n] }
                return Parts(templates: templates, rules: rules)
            }
            let parts = read ?? Parts(templates: heads, rules: [:])
            slot = parts
            return parts
        }
    }
}
