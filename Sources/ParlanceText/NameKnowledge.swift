import Foundation

/// What people call each other, from every language's `names.json`: short forms and
/// diminutives of given names, the same given name across languages, relation words, name
/// particles and titles, spelling conventions and possessives. Merged over all languages,
/// because a contact's name comes from any language whatever the language of the request
/// ("Bob" for Robert in a Spanish request, "Pepe" for José in an English one).
///
/// Every phrase is kept as the words a name is compared by (`TextNormalizer.key`, then
/// `NameWords.split`): "José María" is `["jose", "maria"]`.
public final class NameKnowledge: Sendable {
    /// How a said phrase stands for another.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A short form or diminutive of a given name, or the given name of a short form
        /// ("bob" for "robert", "robert" for "bob").
        case shortForm
        /// The same given name in another language ("guillaume" for "william").
        case acrossLanguages
        /// A name particle or title in another language, or left out ("le grand" for "the great").
        case particle
        /// Another spelling convention of the same letters ("joerg" for "jörg", "inyigo" for "iñigo").
        case spelling
        /// A foreign given name written as it sounds to the speaker's language ("maikel" for
        /// "michael" in Spanish, "yorg" for "jörg"): `respellings` in `names.json`.
        case respelling
    }

    /// One way to say a phrase otherwise: its words, and why they are the same name.
    public struct Equivalent: Sendable, Hashable {
        /// The replacement's words; empty when the phrase is simply left out (a particle).
        public let words: [String]
        /// Why the replacement stands for the phrase.
        public let kind: Kind
    }

    /// A said name read otherwise: its words, the kind of the replacements, and what was
    /// replaced ("bob → robert").
    public struct Variant: Sendable, Hashable {
        /// The name's words with the replacement made.
        public let words: [String]
        /// The kind of replacement (the strongest claim: a spelling variant is the same name).
        public let kind: Kind
        /// What was replaced, for explanations: "bob → robert".
        public let note: String
        /// The words the reading brought in ("robert"): a vocabulary without all of them cannot
        /// match it, so it need not be tried there.
        public let introduced: [String]
    }

    /// The relationships a contact may carry (SiriKit's, and the family words records.md adds).
    public static let relationships: [String] = [
        "mother", "father", "parent", "brother", "sister", "child", "son", "daughter", "friend", "spouse", "partner", "manager",
        "assistant", "grandmother", "grandfather", "aunt", "uncle", "cousin"
    ]

    /// At most this many variants of one said name are tried.
    public static let maximumVariants = 32

    /// Each phrase's replacements, in a flat table (`EquivalentTable`): read from an image as
    /// a few blocks, with no dictionary to fill.
    private let equivalents: EquivalentTable
    private let relationOf: [[String]: Set<String>]
    /// The words for each relationship (the reverse of `relationOf`), sorted.
    private let wordsOfRelation: [String: [[String]]]
    private let spellings: [Spelling]
    private let possessiveWords: Set<String>
    private let relationPhrasesByLanguage: [String: [String]]
    private let titlePhrasesByLanguage: [String: [String]]
    /// The one-word particles and titles ("dr", "jr", "mme"), as keys: a "." after one of them
    /// is an abbreviation's, not a sentence's end.
    public let titleWords: Set<String>
    /// Every one-word given name the tables know, formal or short, of any language, as keys.
    public let givenNames: Set<String>
    /// The productive diminutive endings of every language, longest first ("zinho", "inha",
    /// "chen", "ito"), as keys.
    public let diminutiveEndings: [String]
    /// The longest phrase (in words) of the equivalence table.
    private let longestPhrase: Int

    /// The merged knowledge of every language of `LanguageResources.availableLanguages`, read
    /// from its compiled image (`ImageCache`) when one matches the languages' files.
    public static let shared: Result<NameKnowledge, LanguageDataError> = {
        let languages = LanguageResources.availableLanguages
        let sources = languages.flatMap { language in
            ["names.json", "soundalike.json"].compactMap {
                LanguageResources.directory?.appendingPathComponent(language).appendingPathComponent($0)
            }
        }
        do {
            return .success(
                try ImageCache.load("names", language: "all", sources: sources, extra: languages.joined(separator: ",")) {
                    () throws(LanguageDataError) in
                    try NameKnowledge(languages: languages)
                }.value)
        } catch let error as LanguageDataError {
            return .failure(error)
        } catch {
            return .failure(LanguageDataError(file: "names.json", message: "\(error)"))
        }
    }()

    /// The knowledge an image holds (`write(to:)`'s fields, in its order).
    package init(from image: inout ImageReader) throws(ImageError) {
        self.equivalents = try image.read(EquivalentTable.self)
        let relations = try image.count(least: 16)
        var relationOf: [[String]: Set<String>] = [:]
        for _ in 0..<relations { relationOf[try image.read([String].self)] = try image.read(Set<String>.self) }
        self.relationOf = relationOf
        self.wordsOfRelation = try image.read()
        self.spellings = try image.read()
        self.possessiveWords = try image.read()
        self.relationPhrasesByLanguage = try image.read()
        self.titlePhrasesByLanguage = try image.read()
        self.titleWords = try image.read()
        self.givenNames = try image.read()
        self.diminutiveEndings = try image.read()
        self.longestPhrase = try image.read()
    }

    /// Reads `names.json` of each language and merges them. Throws `LanguageDataError` naming
    /// a file that is missing or malformed, or a relation that is not one of `relationships`.
    public init(languages: [String]) throws(LanguageDataError) {
        var equivalents: [[String]: Set<Equivalent>] = [:]
        var relationOf: [[String]: Set<String>] = [:]
        var spellings: [Spelling] = []
        var possessives: Set<String> = []
        var givenNames: [String: Set<[String]>] = [:]
        var particles: [String: Set<[String]>] = [:]
        var relationPhrases: [String: [String]] = [:]
        var titlePhrases: [String: [String]] = [:]
        var diminutives: Set<String> = []
        func words(_ text: String) -> [String] { NameWords.split(TextNormalizer.key(text)) }
        func add(_ from: [String], _ to: [String], _ kind: Kind) {
            guard !from.isEmpty, from != to else { return }
            equivalents[from, default: []].insert(Equivalent(words: to, kind: kind))
        }
        for language in languages {
            let data = try LanguageResources.load(NamesData.self, file: "names.json", language: language)
            for (formal, forms) in data.nicknames {
                let formalWords = words(formal)
                for form in forms {
                    add(words(form), formalWords, .shortForm)
                    add(formalWords, words(form), .shortForm)
                }
            }
            for (key, forms) in data.givenNames {
                givenNames[key, default: []].formUnion(forms.map(words))
                givenNames[key, default: []].insert(words(key))
            }
            for (name, forms) in data.respellings ?? [:] {
                for form in forms { add(words(form), words(name), .respelling) }
            }
            // The spellings of one name that the language's sound-alike rules hold equal
            // ("Sean", "Shawn", "Shaun"): the same name whatever the language of the request.
            let soundAlike = try LanguageResources.load(SoundAlikeData.self, file: "soundalike.json", language: language)
            for group in soundAlike.equivalents {
                for a in group { for b in group { add(words(a), words(b), .respelling) } }
            }
            for (relation, forms) in data.relations {
                guard Self.relationships.contains(relation) else {
                    throw LanguageDataError(
                        file: "\(language)/names.json",
                        message: "relations: '\(relation)' is not one of \(Self.relationships.joined(separator: ", "))")
                }
                // Folding can make two relations one word ("avó" and "avô" are both "avo"): the
                // word names both.
                for form in forms where !words(form).isEmpty { relationOf[words(form), default: []].insert(relation) }
            }
            for (particle, forms) in data.particles {
                particles[particle, default: []].formUnion(forms.map(words).filter { !$0.isEmpty })
            }
            for entry in data.spellings ?? [] {
                guard (2...3).contains(entry.count), entry.count == 2 || ["consonant", "vowel"].contains(entry[2]) else {
                    throw LanguageDataError(
                        file: "\(language)/names.json",
                        message: "spellings: \(entry) is not [from, to] or [from, to, \"consonant\"|\"vowel\"]")
                }
                spellings.append(
                    Spelling(
                        from: TextNormalizer.key(entry[0]), to: TextNormalizer.key(entry[1]),
                        before: entry.count == 3 ? (entry[2] == "vowel" ? .vowel : .consonant) : nil))
            }
            possessives.formUnion((data.possessives ?? []).map { TextNormalizer.key($0) })
            diminutives.formUnion((data.diminutives ?? []).map { TextNormalizer.key($0) }.filter { !$0.isEmpty })
            let relationWords = data.relations.values.flatMap { $0 }.sorted()
            relationPhrases[language] = (data.possessives ?? []).flatMap { p in relationWords.map { "\(p) \($0)" } }
            // "[article] title": a form of several words ending in one of its group's one-word forms.
            titlePhrases[language] = data.particles.values.flatMap { forms in
                let single = Set(forms.map(words).filter { $0.count == 1 }.map { $0[0] })
                return forms.filter { words($0).count > 1 && words($0).last.map(single.contains) == true }
            }.sorted()
        }
        for group in givenNames.values {
            for a in group { for b in group { add(a, b, .acrossLanguages) } }
        }
        for group in particles.values {
            for a in group {
                add(a, [], .particle)
                for b in group { add(a, b, .particle) }
            }
        }
        // Stable order: the replacements of a phrase sorted, so that variants are the same on
        // every run.
        self.equivalents = EquivalentTable(
            equivalents.mapValues { set in
                set.sorted { ($0.kind.rawValue, $0.words.joined(separator: " ")) < ($1.kind.rawValue, $1.words.joined(separator: " ")) }
            })
        self.relationOf = relationOf
        var wordsOfRelation: [String: [[String]]] = [:]
        for (words, relations) in relationOf { for relation in relations { wordsOfRelation[relation, default: []].append(words) } }
        self.wordsOfRelation = wordsOfRelation.mapValues { $0.sorted { $0.joined(separator: " ") < $1.joined(separator: " ") } }
        self.spellings = Array(Set(spellings)).sorted { ($0.from, $0.to) < ($1.from, $1.to) }
        self.possessiveWords = possessives
        self.relationPhrasesByLanguage = relationPhrases
        self.titlePhrasesByLanguage = titlePhrases
        self.titleWords = Set(particles.values.flatMap { $0 }.filter { $0.count == 1 }.map { $0[0] })
        var names: Set<String> = []
        for (from, replacements) in equivalents where from.count == 1 {
            if replacements.contains(where: { $0.kind == .shortForm || $0.kind == .acrossLanguages }) { names.insert(from[0]) }
        }
        self.givenNames = names
        self.diminutiveEndings = diminutives.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        self.longestPhrase = equivalents.keys.map(\.count).max() ?? 1
    }

    /// The relationships a said phrase names ("mom", "ma mère", "Mutti" → mother; "avó",
    /// folded "avo", → grandmother and grandfather), after the possessives before it ("my",
    /// "mi", "ma"), sorted; empty when it names none.
    public func relations(of words: [String]) -> [String] {
        var words = words[...]
        while let first = words.first, possessiveWords.contains(first), words.count > 1 { words = words.dropFirst() }
        return (relationOf[Array(words)] ?? []).sorted()
    }

    /// The language's relation words after each of its possessives ("my mother", "meiner
    /// Mutter"), as written: the parser knows them as contact names, so that a person slot takes
    /// "my mom" although "my" never starts a name. (Bare relation words are common nouns too —
    /// "femme", "Frau", "kid" — so they stay unknown words to the parser; said as a name, the
    /// resolver still reads them.)
    public func relationPhrases(language: String) -> [String] {
        relationPhrasesByLanguage[language] ?? []
    }

    /// The language's titles and particles said with an article, as written ("la doctora", "al
    /// doctor", "el pequeño": a form of several words ending in a one-word form of the same
    /// particle): a name may open with one although an article never starts a name.
    public func titlePhrases(language: String) -> [String] {
        titlePhrasesByLanguage[language] ?? []
    }

    /// Every word for `relationship`, as compared (folded words): the names a contact called by
    /// it may have ("Tía", "Oma").
    public func words(forRelationship relationship: String) -> [[String]] {
        wordsOfRelation[relationship] ?? []
    }

    /// The said name read otherwise, at most `maximumVariants`: with its spelling conventions
    /// folded (one variant), and with each phrase of one or two words that the tables know
    /// replaced by each of its equivalents.
    public func variants(of words: [String]) -> [Variant] {
        var variants: [Variant] = []
        var seen: Set<[String]> = [words]
        func append(_ candidate: [String], _ kind: Kind, _ note: String, _ introduced: [String]) {
            guard variants.count < Self.maximumVariants, !candidate.isEmpty, seen.insert(candidate).inserted else { return }
            variants.append(Variant(words: candidate, kind: kind, note: note, introduced: introduced))
        }
        // Spelling conventions: every word folded at once.
        let folded = words.map { word in spellings.reduce(word) { $1.apply(to: $0) } }
        if folded != words {
            let changed = zip(words, folded).filter { $0 != $1 }
            append(folded, .spelling, changed.map { "\($0) → \($1)" }.joined(separator: ", "), changed.map(\.1))
        }
        // Productive diminutives: the stem the ending leaves, with the spelling a following "i"
        // forced undone ("qu" was "c", "gu" was "g"), as a name ending in a vowel or in none
        // ("olguinha" → "olga", "marquinho" → "marco", "hansi" → "hans").
        for (i, word) in words.enumerated() where variants.count < Self.maximumVariants {
            for ending in diminutiveEndings where word.count >= ending.count + 3 && word.hasSuffix(ending) {
                var stem = String(word.dropLast(ending.count))
                if stem.hasSuffix("qu") { stem = String(stem.dropLast(2)) + "c" }
                if stem.hasSuffix("gu") { stem = String(stem.dropLast()) }
                for form in [stem + "a", stem + "o", stem, stem + "e"] where form != word {
                    var replaced = words
                    replaced[i] = form
                    append(replaced, .shortForm, "\(word) → \(form) (diminutive)", [form])
                }
            }
        }
        for length in stride(from: min(longestPhrase, words.count), through: 1, by: -1) {
            // Once full, no more copies of a (possibly long) name are made.
            for start in 0...(words.count - length) where variants.count < Self.maximumVariants {
                let phrase = Array(words[start..<(start + length)])
                for equivalent in equivalents[phrase] {
                    let replaced = Array(words[..<start]) + equivalent.words + Array(words[(start + length)...])
                    let to = equivalent.words.isEmpty ? "(left out)" : equivalent.words.joined(separator: " ")
                    append(replaced, equivalent.kind, "\(phrase.joined(separator: " ")) → \(to)", equivalent.words)
                }
            }
        }
        return variants
    }
}

/// One spelling convention: `from` is written for `to` ("ue" for "ü", folded "u"), where the
/// next letter is a consonant or a vowel when `before` says so ("Mueller", not "tomatoe").
struct Spelling: Sendable, Hashable {
    enum Class: Sendable, Hashable { case consonant, vowel }
    let from: String
    let to: String
    let before: Class?

    func apply(to word: String) -> String {
        guard word.contains(from) else { return word }
        var result = ""
        var rest = Substring(word)
        while let range = rest.range(of: from) {
            result += rest[..<range.lowerBound]
            let next = rest[range.upperBound...].first
            let fits =
                switch before {
                case nil: true
                case .vowel: next.map { "aeiouy".contains($0) } ?? false
                case .consonant: next.map { $0.isLetter && !"aeiouy".contains($0) } ?? false
                }
            result += fits ? to : from
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

/// `names.json`: how people name each other in a language.
struct NamesData: Decodable, Sendable {
    /// Formal given names and their short forms and diminutives: "robert" → ["bob", "rob"].
    var nicknames: [String: [String]]
    /// A given name's forms in this language, by its English form: "william" → ["guillaume"].
    var givenNames: [String: [String]]
    /// Foreign given names as this language's speakers write them by ear: "michael" →
    /// ["maikel", "maicol"] in Spanish. Read one way: the respelling stands for the name.
    var respellings: [String: [String]]?
    /// Words for each relationship: "mother" → ["mom", "mum"].
    var relations: [String: [String]]
    /// Words for each particle or title: "great" → ["the great"].
    var particles: [String: [String]]
    /// Spellings of the same letters: ["ue", "u", "consonant"] (after folding "ü" is "u"; the
    /// optional third element: the class of the letter that must follow).
    var spellings: [[String]]?
    /// Possessives said before a relation word: "my", "mi".
    var possessives: [String]?
    /// Productive diminutive endings: "inho", "ito", "chen".
    var diminutives: [String]?
}

extension NameKnowledge: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(equivalents)
        image.write(relationOf.count)
        for key in relationOf.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            image.write(key)
            image.write(relationOf[key]!)
        }
        image.write(wordsOfRelation)
        image.write(spellings)
        image.write(possessiveWords)
        image.write(relationPhrasesByLanguage)
        image.write(titlePhrasesByLanguage)
        image.write(titleWords)
        image.write(givenNames)
        image.write(diminutiveEndings)
        image.write(longestPhrase)
    }
}

extension NameKnowledge.Equivalent: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(words)
        image.write(kind.rawValue)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        let words = try image.read([String].self)
        guard let kind = NameKnowledge.Kind(rawValue: try image.read(String.self)) else {
            throw ImageError("unknown kind of name equivalent")
        }
        self.init(words: words, kind: kind)
    }
}

extension Spelling: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(from)
        image.write(to)
        image.write(UInt8(before == nil ? 0 : before == .vowel ? 1 : 2))
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        let from = try image.read(String.self)
        let to = try image.read(String.self)
        let before: Class?
        switch try image.read(UInt8.self) {
        case 0: before = nil
        case 1: before = .vowel
        case 2: before = .consonant
        default: throw ImageError("unknown letter class")
        }
        self.init(from: from, to: to, before: before)
    }
}

/// Phrases and their replacements (`NameKnowledge.Equivalent`) as flat arrays: the phrases
/// (words joined by spaces, which no word holds) in a `FeatureTable`, each phrase's
/// replacements a range of `kinds` and `wordRanges`, each replacement's words a range of
/// `words`, ids into a second `FeatureTable` of every word.
struct EquivalentTable: Sendable {
    private let phrases: FeatureTable
    private let starts: [Int32]
    private let kinds: [UInt8]
    private let wordStarts: [Int32]
    private let words: [Int32]
    private let vocabulary: FeatureTable
    /// The kinds by their index in `kinds`.
    private static let allKinds: [NameKnowledge.Kind] = [.shortForm, .acrossLanguages, .particle, .spelling, .respelling]

    init(_ table: [[String]: [NameKnowledge.Equivalent]]) {
        let keys = table.keys.sorted { $0.lexicographicallyPrecedes($1) }
        var vocabulary: [String] = []
        var ids: [String: Int32] = [:]
        func id(_ word: String) -> Int32 {
            if let known = ids[word] { return known }
            ids[word] = Int32(vocabulary.count)
            vocabulary.append(word)
            return Int32(vocabulary.count - 1)
        }
        var starts: [Int32] = [0]
        var kinds: [UInt8] = []
        var wordStarts: [Int32] = [0]
        var words: [Int32] = []
        for key in keys {
            for equivalent in table[key]! {
                kinds.append(UInt8(Self.allKinds.firstIndex(of: equivalent.kind)!))
                words += equivalent.words.map(id)
                wordStarts.append(Int32(words.count))
            }
            starts.append(Int32(kinds.count))
        }
        phrases = FeatureTable(keys.map { $0.joined(separator: " ") })
        self.starts = starts
        self.kinds = kinds
        self.wordStarts = wordStarts
        self.words = words
        self.vocabulary = FeatureTable(vocabulary)
    }

    /// A phrase's replacements, in their order; none for a phrase the tables do not have.
    subscript(phrase: [String]) -> [NameKnowledge.Equivalent] {
        guard let row = phrases[phrase.joined(separator: " ")].map(Int.init) else { return [] }
        return (Int(starts[row])..<Int(starts[row + 1])).map { n in
            NameKnowledge.Equivalent(
                words: words[Int(wordStarts[n])..<Int(wordStarts[n + 1])].map { vocabulary.string(Int($0)) },
                kind: Self.allKinds[Int(kinds[n])])
        }
    }
}

extension EquivalentTable: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(phrases)
        image.writePlain(starts)
        image.writePlain(kinds)
        image.writePlain(wordStarts)
        image.writePlain(words)
        image.write(vocabulary)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        phrases = try image.read()
        starts = try image.readPlain()
        kinds = try image.readPlain()
        wordStarts = try image.readPlain()
        words = try image.readPlain()
        vocabulary = try image.read()
        guard starts.count == phrases.count + 1, starts.first == 0, starts.last.map({ Int($0) }) == kinds.count,
            wordStarts.count == kinds.count + 1, wordStarts.first == 0, wordStarts.last.map({ Int($0) }) == words.count,
            zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }), zip(wordStarts, wordStarts.dropFirst()).allSatisfy({ $0 <= $1 }),
            kinds.allSatisfy({ Int($0) < Self.allKinds.count }), words.allSatisfy({ $0 >= 0 && Int($0) < vocabulary.count })
        else { throw ImageError("a name table does not hold") }
    }
}
