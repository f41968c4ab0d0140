import Foundation
import ParlanceContext
import ParlanceText

// A language's grammar as a compiled image (`ImageCache`): its automata, templates, rules and
// lexicons, as `LanguageGrammar.init(language:catalogue:tokenizer:directory:)` builds them.

extension LanguageGrammar {
    /// The files a language's grammar is built from, in a fixed order: its sentence files and
    /// lexicon, and the text layer's data for the language (the tokenizer's rules decide the
    /// template words' keys).
    static func sources(language: String, directory: URL?) -> [URL] {
        var sources: [URL] = []
        if let folder = (directory ?? LanguageGrammar.directory)?.appendingPathComponent(language) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            sources += names.filter { $0.hasSuffix(".sentences") || $0 == "lexicon.json" }.sorted().map {
                folder.appendingPathComponent($0)
            }
        }
        if let text = LanguageResources.directory?.appendingPathComponent(language) {
            sources += LanguageResources.fileNames.sorted().map { text.appendingPathComponent($0) }
        }
        // Titles and particles are merged over every language (`NameKnowledge.titleWords`).
        for other in LanguageResources.availableLanguages where other != language {
            if let names = LanguageResources.directory?.appendingPathComponent(other).appendingPathComponent("names.json") {
                sources.append(names)
            }
        }
        return sources
    }

    /// The grammar of `language`, read from its compiled image when the cache has one that
    /// matches the sources, else built (and its image written): the same grammar either way.
    static func load(
        language: String, catalogue: IntentCatalogue, tokenizer: Tokenizer, directory: URL? = nil, cache: URL?? = .none
    ) throws -> (grammar: LanguageGrammar, origin: ImageCache.Origin, file: URL?) {
        let loaded = try ImageCache.load(
            "grammar", language: language, sources: sources(language: language, directory: directory),
            extra: catalogue.fingerprint, in: cache
        ) {
            GrammarImage(grammar: try LanguageGrammar(language: language, catalogue: catalogue, tokenizer: tokenizer, directory: directory))
        }
        if let grammar = loaded.value.grammar { return (grammar, loaded.origin, loaded.file) }
        guard let fields = loaded.value.fields else { throw GrammarError.missing(language) }
        return (LanguageGrammar(fields: fields, tokenizer: tokenizer), loaded.origin, loaded.file)
    }
}

extension IntentCatalogue {
    /// What the grammar checks its templates against: each intent's name and parameters, their
    /// types and values (a change of the catalogue is a new image).
    var fingerprint: String {
        intents.map { intent in
            "\(intent.name):"
                + intent.parameters.map { "\($0.name)/\($0.type)/\(($0.values ?? []).joined(separator: ","))" }.joined(separator: ";")
        }.joined(separator: "|")
    }
}

/// A grammar on its way to or from an image: either the grammar built (to write) or the
/// image's bytes read back (to make the grammar from, with the language's tokenizer).
struct GrammarImage: ImageCodable {
    var grammar: LanguageGrammar?
    var fields: ImageFields?

    init(grammar: LanguageGrammar) { self.grammar = grammar }

    func write(to image: inout ImageWriter) { grammar?.write(to: &image) }

    init(from image: inout ImageReader) throws(ImageError) { fields = try ImageFields(from: &image) }
}

/// A grammar's fields as read from an image, in the order `LanguageGrammar.write(to:)` writes them.
struct ImageFields {
    var language: String
    var heads: [SentenceFile.Template]
    var patterns: PatternSource
    var main: LanguageGrammar.Compiled
    var verbified: LanguageGrammar.Compiled
    var mention: LanguageGrammar.Compiled
    var mentionVerb: LanguageGrammar.Compiled?
    var prefixRule: LanguageGrammar.Compiled
    var suffixRule: LanguageGrammar.Compiled
    var enumerations: [String: PhraseLexicon]
    var cues: [String: LanguageGrammar.Cues]
    var triggers: PhraseLexicon
    var counts: [String: PhraseLexicon]
    var headWords: [String: Set<String>]
    var leadingHeadWords: [String: LanguageGrammar.LeadingHeadWords]
    var nameLinks: PhraseSet
    var fillers: Set<String>
    var wakeWords: Set<String>
    var possessives: Set<String>
    var elsewhere: PhraseSet
    var outside: [String: OutsideWords]
    var negations: Negations
    var conjunctions: Set<String>
    var notNames: Set<String>
    var templateWords: Set<String>
    var capitalizedNouns: Bool
    var vocabulary: [String: [String]]
    var vocabularyKeys: [String: [[String]]]
    var titlePhraseKeys: [[String]]
    var titleWords: Set<String>

    init(from image: inout ImageReader) throws(ImageError) {
        language = try image.read()
        heads = try image.read([TemplateHead].self).map(\.template)
        main = try image.read()
        verbified = try image.read()
        mention = try image.read()
        mentionVerb = try image.read()
        prefixRule = try image.read()
        suffixRule = try image.read()
        enumerations = try image.read()
        cues = try image.read()
        triggers = try image.read()
        counts = try image.read()
        headWords = try image.read()
        leadingHeadWords = try image.read()
        nameLinks = try image.read()
        fillers = try image.read()
        wakeWords = try image.read()
        possessives = try image.read()
        elsewhere = try image.read()
        outside = try image.read()
        negations = try image.read()
        conjunctions = try image.read()
        notNames = try image.read()
        templateWords = try image.read()
        capitalizedNouns = try image.read()
        vocabulary = try image.read()
        vocabularyKeys = try image.read()
        titlePhraseKeys = try image.read()
        titleWords = try image.read()
        patterns = PatternSource(block: try image.block(), heads: heads)
        // A template index past the templates would be read out of bounds when a match ends.
    }
}

extension LanguageGrammar {
    func write(to image: inout ImageWriter) {
        image.write(language)
        image.write(heads.map(TemplateHead.init))
        image.write(main)
        image.write(verbified)
        image.write(mention)
        image.write(mentionVerb)
        image.write(prefixRule)
        image.write(suffixRule)
        image.write(enumerations)
        image.write(cues)
        image.write(triggers)
        image.write(counts)
        image.write(headWords)
        image.write(leadingHeadWords)
        image.write(nameLinks)
        image.write(fillers)
        image.write(wakeWords)
        image.write(possessives)
        image.write(elsewhere)
        image.write(outside)
        image.write(negations)
        image.write(conjunctions)
        image.write(notNames)
        image.write(templateWords)
        image.write(capitalizedNouns)
        image.write(vocabulary)
        image.write(vocabularyKeys)
        image.write(titlePhraseKeys)
        image.write(titleWords)
        let parts = templates
        let rules = self.rules
        image.writeBlock { block in
            block.write(parts.map(\.pattern))
            block.write(rules)
        }
    }
}

extension LanguageGrammar.Compiled: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(automaton)
        image.write(start)
        image.write(accepting)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        let automaton = try image.read(Automaton.self)
        let start = try image.read(Int.self)
        let accepting = try image.read([Int: IntentKey].self)
        guard start >= 0, start < automaton.stateCount, accepting.keys.allSatisfy({ $0 >= 0 && $0 < automaton.stateCount }) else {
            throw ImageError("an automaton's start or ends out of range")
        }
        self.init(closed: automaton, start: start, accepting: accepting)
    }
}

extension IntentKey: ImageCodable {
    package func write(to image: inout ImageWriter) {
        switch self {
        case .catalogue(let name):
            image.write(UInt8(0))
            image.write(name)
        case .custom(let index):
            image.write(UInt8(1))
            image.write(index)
        }
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        switch try image.read(UInt8.self) {
        case 0: self = .catalogue(try image.read())
        case 1: self = .custom(try image.read())
        default: throw ImageError("unknown intent key")
        }
    }
}

extension TemplatePattern: ImageCodable {
    package func write(to image: inout ImageWriter) {
        switch self {
        case .word(let word):
            image.write(UInt8(0))
            image.write(word)
        case .sequence(let items):
            image.write(UInt8(1))
            image.write(items)
        case .alternatives(let options):
            image.write(UInt8(2))
            image.write(options)
        case .optional(let inner):
            image.write(UInt8(3))
            image.write(inner)
        case .rule(let name):
            image.write(UInt8(4))
            image.write(name)
        case .slot(let name):
            image.write(UInt8(5))
            image.write(name)
        }
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        switch try image.read(UInt8.self) {
        case 0: self = .word(try image.read())
        case 1: self = .sequence(try image.read())
        case 2: self = .alternatives(try image.read())
        case 3: self = .optional(try image.read())
        case 4: self = .rule(try image.read())
        case 5: self = .slot(try image.read())
        default: throw ImageError("unknown pattern kind")
        }
    }
}

/// A whole template: its head (`TemplateHead`), then its pattern.
extension SentenceFile.Template: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(TemplateHead(self))
        image.write(pattern)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        self = try image.read(TemplateHead.self).template
        pattern = try image.read()
    }
}

extension LanguageGrammar.Cues: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(anywhere)
        image.write(beforePerson)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        self.init()
        anywhere = try image.read()
        beforePerson = try image.read()
    }
}

extension LanguageGrammar.LeadingHeadWords: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(heads)
        image.write(links)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        self.init(heads: try image.read(), links: try image.read())
    }
}

extension Negations: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(phrases)
        image.write(unless)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        self.init(phrases: try image.read(), unless: try image.read())
    }
}

extension OutsideWords.Frame: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(opening)
        image.write(closing)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        self.init(opening: try image.read(), closing: try image.read())
    }
}

extension OutsideWords: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(phrases)
        image.write(endings)
        image.write(frames)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        self.init(phrases: try image.read(), endings: try image.read(), frames: try image.read())
    }
}

/// One compiled image, as `IntentParser.compileImages` found or made it.
public struct CompiledImage: Sendable {
    /// What the image holds: "grammar" (a language's automata, templates and lexicons).
    public let kind: String
    /// The language.
    public let language: String
    /// The image's file; nil when the cache is off.
    public let file: URL?
    /// The file's size in bytes (0 without a file).
    public let bytes: Int
    /// "read" (the cache had it), "built" (made and written) or "rebuilt" (the file there was
    /// damaged, and was replaced).
    public let origin: String
    /// The wall time it took to find or make it, in seconds.
    public let seconds: Double
}

extension IntentParser {
    /// Makes the compiled images of `languages` (all when nil) ahead of the first parse, or
    /// finds them up to date, in the cache folder (`PARLANCE_CACHE_DIR`, `$XDG_CACHE_HOME/parlance`
    /// or `~/.cache/parlance`). Throws the grammar's own error when a language's sources are wrong.
    public static func compileImages(languages: [String]? = nil, analyzer: TextAnalyzer = .shared) throws -> [CompiledImage] {
        var made: [CompiledImage] = []
        for language in languages ?? LanguageGrammar.availableLanguages {
            let tokenizer = try analyzer.pack(for: ParlanceLocale(language)).tokenizer
            let start = ContinuousClock.now
            let loaded = try LanguageGrammar.load(language: language, catalogue: .standard, tokenizer: tokenizer)
            let elapsed = ContinuousClock.now - start
            let bytes =
                loaded.file.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber }?.intValue ?? 0
            made.append(
                CompiledImage(
                    kind: "grammar", language: language, file: loaded.file, bytes: bytes, origin: loaded.origin.rawValue,
                    seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
        }
        return made
    }

    /// The folder compiled images are kept in; nil when the cache is off (`PARLANCE_CACHE_DIR=off`).
    public static var imageCacheDirectory: URL? { ImageCache.directory }
}

/// A template without its pattern, as an image keeps it where a match reads it.
struct TemplateHead: ImageCodable {
    var template: SentenceFile.Template

    init(_ template: SentenceFile.Template) { self.template = template }

    func write(to image: inout ImageWriter) {
        image.write(template.intent)
        image.write(template.fixed.map(\.0))
        image.write(template.fixed.map(\.1))
        image.write(template.verbified)
        image.write(template.source)
    }

    init(from image: inout ImageReader) throws(ImageError) {
        let intent = try image.read(IntentKey.self)
        let names = try image.read([String].self)
        let values = try image.read([String].self)
        guard names.count == values.count else { throw ImageError("a template's fixed values do not pair") }
        template = SentenceFile.Template(
            intent: intent, pattern: .sequence([]), fixed: Array(zip(names, values)), verbified: try image.read(), source: try image.read())
    }
}
