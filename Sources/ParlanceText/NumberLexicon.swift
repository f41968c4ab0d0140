import Foundation
import ParlanceICU

/// A number found in a token stream.
struct NumberMatch {
    var start: Int
    var end: Int
    var value: Decimal
    /// Written in digits (not spelled out).
    var isDigits: Bool
    /// A word that is a number only inside a larger expression ("un" in "un euro").
    var isWeak: Bool

    /// The value when it is a whole number that fits an Int.
    var intValue: Int? {
        var value = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        guard rounded == value, abs(value) < 1_000_000_000_000 else { return nil }
        return NSDecimalNumber(decimal: value).intValue
    }
}

/// Numbers of one language: digits with the locale's separators, parsed by ICU, and
/// spelled-out numbers from a table made once by formatting 0…999 and round thousands
/// with every CLDR spell-out rule set of the language (so "veintiuna", "ein­und­zwanzig"
/// and "vingt et un" are all there). Longer numbers ("two thousand five hundred",
/// "zweitausenddreiundzwanzig", "trois cent mille") are composed from the table's phrases
/// and the language's multiplier words (hundred, thousand, million, billion in the forms
/// CLDR writes after another number: "cents", "mila", "millones"), in one pass over the
/// run of number words: linear in its length.
struct NumberLexicon: Sendable {
    let language: String
    /// Spelled-out phrases (keys joined by spaces) and their whole-number values.
    private let table: [String: Int64]
    private let longestPhrase: Int
    /// What joins the keys of a phrase in the table: a space, or nothing in languages
    /// written without spaces (Japanese, Chinese), whose tokenizer splits numerals.
    private let joiner: String
    /// Every key that occurs in a spelled-out number.
    private let vocabulary: Set<String>
    /// The prints of `vocabulary` (`WordPrints`): most keys that are no number word are ruled
    /// out without hashing them (`isNumberWord`); the thousand words of a language's numbers
    /// fill a 256-bit sketch.
    private let vocabularyPrints: WordPrints
    private let weakWords: Set<String>
    private let connectors: Set<String>
    /// Words that multiply what comes before them ("thousand", "mila", "millones"), with
    /// their factor: 100, 1,000, 1,000,000 or 1,000,000,000.
    private let multipliers: [String: Int64]
    /// Whether the language groups thousands with a space ("1 234,56").
    private let groupsWithSpace: Bool

    init(language: String, tokenizer: Tokenizer) throws {
        let data = try LanguageResources.load(NumberData.self, file: "numbers.json", language: language)
        self.language = language
        let spellOut = try NumberFormat(locale: language, style: .spellOut)
        let ruleSets = try spellOut.ruleSets().filter { $0 == "%spellout-numbering" || $0.hasPrefix("%spellout-cardinal") }
        var values: [Int64] = Array(0...999)
        values += stride(from: 1000, through: 10000, by: 1000).map(Int64.init)
        values += [20000, 50000, 100_000, 1_000_000, 1_000_000_000]
        var table: [String: Int64] = [:]
        for (n, ruleSet) in ruleSets.enumerated() {
            // The first rule sets give every value; variants (-feminine, -n, -r …) differ
            // only in small numbers and their compounds, so they get fewer values.
            let subset = n < 3 ? values : values.filter { $0 < 100 || $0 % 100 == 1 }
            for value in subset {
                let phrase = try spellOut.format(value, ruleSet: ruleSet)
                let key = NumberLexicon.split(phrase).joined(separator: " ")
                if table[key] == nil { table[key] = value }
            }
        }
        for (word, value) in data.extraWords {
            table[tokenizer.phraseKeys(word).joined(separator: " ")] = value
        }
        self.table = table
        let joiner = table.keys.contains { $0.contains(" ") } ? " " : ""
        self.joiner = joiner
        // Without spaces, a phrase of the table may be split into as many tokens as it has characters.
        self.longestPhrase =
            joiner.isEmpty ? (table.keys.map(\.count).max() ?? 1) : (table.keys.map { $0.split(separator: " ").count }.max() ?? 1)
        let connectors = Set(data.connectors.map(TextNormalizer.key))
        self.connectors = connectors
        let multipliers = try NumberLexicon.multipliers(spellOut, ruleSets: Array(ruleSets.prefix(3)), table: table)
        self.multipliers = multipliers
        self.vocabulary = Set(table.keys.flatMap { $0.split(separator: " ").map(String.init) }).union(connectors).union(multipliers.keys)
        self.weakWords = Set(data.weakWords.map(TextNormalizer.key))
        let decimal = try NumberFormat(locale: language, style: .decimal)
        let grouping = (try? decimal.symbol(.groupingSeparator)) ?? ","
        self.groupsWithSpace = grouping.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
        (self.pieceStarts, self.pieceEnds) = NumberLexicon.pieceSketches(table: table, multipliers: multipliers, connectors: connectors)
        self.vocabularyPrints = WordPrints(vocabulary)
    }

    /// Whether a key is a word of a spelled-out number (`vocabulary`), ruled out by its print
    /// first.
    @inline(__always) private func isNumberWord(_ key: String) -> Bool {
        vocabularyPrints.contains(key) && vocabulary.contains(key)
    }

    /// The last two bytes of every piece a compound may end with (`pieceEnd(_:)`): a word
    /// that ends with none is no compound, found without cutting it.
    private let pieceEnds: Bits256

    /// The first two bytes of every piece (`pieceStart(_:)`): a compound's first piece has two
    /// characters or more, so a word that starts with none is no compound, found without
    /// cutting it.
    private let pieceStarts: Bits256

    /// `pieceStarts` and `pieceEnds`, in one pass over the pieces.
    private static func pieceSketches(table: [String: Int64], multipliers: [String: Int64], connectors: Set<String>) -> (
        starts: Bits256, ends: Bits256
    ) {
        var starts = Bits256()
        var ends = Bits256()
        for piece in Array(table.keys) + Array(multipliers.keys) + Array(connectors) {
            starts.insert(pieceStart(piece))
            ends.insert(pieceEnd(piece))
        }
        return (starts, ends)
    }

    /// A word's bit in `pieceStarts`: its first two bytes.
    private static func pieceStart(_ word: String) -> Int {
        let utf8 = word.utf8
        return Bits256.sketch(count: 0, first: utf8.first, last: utf8.dropFirst().first)
    }

    /// A word's bit in `pieceEnds`: its last two bytes.
    private static func pieceEnd(_ word: String) -> Int {
        let utf8 = word.utf8
        return Bits256.sketch(count: 0, first: utf8.dropLast().last, last: utf8.last)
    }

    /// The multiplier words, found in CLDR's spellings: what is left of k × m (and of
    /// k × m + 20) once the spellings of k (and of 20) are taken off, when that is one word
    /// ("two hundred" → "hundred", "deux cent vingt" → "cent", "zweitausend" → "tausend",
    /// "dos millones" → "millones"); and a word the table has alone for a round m ("mil", "mille").
    static func multipliers(_ spellOut: NumberFormat, ruleSets: [String], table: [String: Int64]) throws -> [String: Int64] {
        var found: [String: Int64] = [:]
        for m: Int64 in [100, 1000, 1_000_000, 1_000_000_000] {
            // The table's shortest words for m ("tausend", not "eintausend").
            let singles = table.filter { !$0.key.contains(" ") && $0.value == m && $0.key.count > 1 }.keys
            for word in singles where !singles.contains(where: { $0 != word && word.hasSuffix($0) }) {
                found[word] = m
            }
            for ruleSet in ruleSets {
                let tail = try spellOut.format(20, ruleSet: ruleSet)
                for k: Int64 in [2, 3] {
                    let head = try spellOut.format(k, ruleSet: ruleSet)
                    for (value, after) in [(k * m, ""), (k * m + 20, tail)] {
                        let phrase = try spellOut.format(value, ruleSet: ruleSet)
                        if let word = NumberLexicon.between(head, after, in: phrase) { found[word] = m }
                    }
                }
            }
        }
        return found
    }

    /// The one word left of `phrase` between `head` and `tail`, written as separate words or
    /// as one compound word; nil when there is not exactly one.
    static func between(_ head: String, _ tail: String, in phrase: String) -> String? {
        let words = split(phrase)
        let first = split(head)
        let last = tail.isEmpty ? [] : split(tail)
        if words.count == first.count + last.count + 1, Array(words.prefix(first.count)) == first, Array(words.suffix(last.count)) == last {
            return words[first.count]
        }
        // One compound word: "zweihundertzwanzig" = "zwei" + "hundert" + "zwanzig".
        let whole = TextNormalizer.key(phrase)
        let start = TextNormalizer.key(head)
        let end = TextNormalizer.key(tail)
        guard words.count == 1, whole.hasPrefix(start), whole.hasSuffix(end), whole.count > start.count + end.count else { return nil }
        let middle = String(whole.dropFirst(start.count).dropLast(end.count))
        return middle.count > 1 ? middle : nil
    }

    /// Keys of a spelled-out phrase as ICU writes it: words separated by spaces or hyphens.
    static func split(_ phrase: String) -> [String] {
        TextNormalizer.key(phrase).split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "\u{00A0}" }).map(String.init)
    }

    /// Every number in the stream, left to right, not overlapping.
    func find(in stream: TokenStream, decimal: NumberFormat) -> [NumberMatch] {
        var matches: [NumberMatch] = []
        var i = 0
        while i < stream.count {
            if let match = digits(at: i, in: stream, decimal: decimal) ?? words(at: i, in: stream) {
                matches.append(match)
                i = match.end
            } else {
                i += 1
            }
        }
        return matches
    }

    private func digits(at i: Int, in stream: TokenStream, decimal: NumberFormat) -> NumberMatch? {
        guard stream.kind(i) == .number else { return nil }
        let token = stream.token(i)
        // No amount anyone says is longer than a word may be; longer runs of digits (a pasted
        // identifier, a fuzzed line) are left as they are rather than handed to ICU whole.
        guard token.text.utf8.count <= WordLength.longest else { return nil }
        var end = i + 1
        var text = token.text
        // "1 234 567,89" where the locale groups with a space: ICU splits at the spaces.
        if groupsWithSpace {
            while end < stream.count, stream.gap(end - 1) == 1, stream.token(end).kind == .number,
                stream.token(end).text.prefix(while: \.isASCIIDigit).count == 3,
                !text.contains(where: { !$0.isASCIIDigit })
            {
                text += stream.token(end).text
                end += 1
            }
        }
        if let value = decimal.parseWhole(text).flatMap({ Decimal(string: $0) }) {
            return NumberMatch(start: i, end: end, value: value, isDigits: true, isWeak: false)
        }
        // Digits the locale's format refuses ("1.234,56" in English): keep plain integers only.
        guard end == i + 1, token.text.allSatisfy(\.isASCIIDigit), let value = Decimal(string: token.text) else { return nil }
        return NumberMatch(start: i, end: end, value: value, isDigits: true, isWeak: false)
    }

    private func words(at i: Int, in stream: TokenStream) -> NumberMatch? {
        let first = stream.keys[i]
        if !isNumberWord(first) || connectors.contains(first) {
            return compound(at: i, in: stream)
        }
        // The run of number words (a connector only between two of them; compounds such as
        // "dreihunderttausend" in it count as number words).
        var end = i
        while end < stream.count, end - i < 12, stream.token(end).kind == .word,
            isNumberWord(stream.keys[end]) || (end > i && compoundValue(stream.keys[end]) != nil)
        {
            end += 1
        }
        while end > i, connectors.contains(stream.keys[end - 1]) { end -= 1 }
        // Phrases of the table and multipliers, composed left to right.
        var number = Composition()
        var next = i
        var matched = i
        var phrase = 0
        while next < end {
            var at = next
            // A connector only between two parts: "one hundred and five".
            if connectors.contains(stream.keys[at]), at > i { at += 1 }
            guard at < end, let length = extend(&number, at: at, limit: end, stream: stream) else { break }
            next = at + length
            matched = next
            phrase = length
        }
        guard matched > i, let value = number.value else { return nil }
        let weak = matched == i + 1 && phrase == 1 && weakWords.contains(first)
        return NumberMatch(start: i, end: matched, value: Decimal(value), isDigits: false, isWeak: weak)
    }

    /// Adds to `number` the part at `at` that continues it — the longest phrase of the table
    /// that does, a multiplier word, or a compound word — and returns its length in words;
    /// nil when none does.
    private func extend(_ number: inout Composition, at: Int, limit: Int, stream: TokenStream) -> Int? {
        for length in stride(from: min(limit - at, longestPhrase), through: 1, by: -1) {
            let key = length == 1 ? stream.keys[at] : stream.keys[at..<(at + length)].joined(separator: joiner)
            if length == 1, let factor = multipliers[key], number.add(.times(factor)) { return 1 }
            if let value = table[key], number.add(.plus(value)) { return length }
            if length == 1, table[key] == nil, let value = compoundValue(key), number.add(.plus(value)) { return 1 }
        }
        return nil
    }

    /// The value of a compound number word the table lacks ("dreihunderttausend").
    private func compoundValue(_ key: String) -> Int64? {
        // (Eight characters are eight bytes or more; the pieces' sketches, which `composeWord`
        // asks first, are cheaper than counting characters.)
        guard key.utf8.count >= 8, pieceEnds.contains(Self.pieceEnd(key)), pieceStarts.contains(Self.pieceStart(key)),
            key.characterCount >= 8, key.unicodeScalars.count <= WordLength.longest
        else { return nil }
        return composeWord(key)
    }

    /// A single word made of number words without being in the table, as German and
    /// Italian compounds are ("zweitausendfünfhundert", "duemilacinquecento").
    private func compound(at i: Int, in stream: TokenStream) -> NumberMatch? {
        let key = stream.keys[i]
        guard stream.token(i).kind == .word, let value = compoundValue(key) else { return nil }
        return NumberMatch(start: i, end: i + 1, value: Decimal(value), isDigits: false, isWeak: false)
    }

    /// The value of a word that splits into number words (zwei·tausend·fünf·hundert), each
    /// the longest that still lets the rest split; nil when it does not split or the parts
    /// do not make a number.
    func composeWord(_ key: String) -> Int64? {
        // The last piece ends the word, with its last two bytes.
        guard pieceEnds.contains(Self.pieceEnd(key)), pieceStarts.contains(Self.pieceStart(key)) else { return nil }
        // A piece is a substring of the key, cut at its characters' bounds.
        let bounds = key.characterBounds
        let count = bounds.count - 1
        // Which suffixes split into number words (from the end), so the walk never backtracks.
        var splits = [Bool](repeating: false, count: count + 1)
        splits[count] = true
        for start in stride(from: count - 1, through: 0, by: -1) {
            for end in stride(from: start + 2, through: min(count, start + 16), by: 1) where splits[end] {
                if isPiece(String(key[bounds[start]..<bounds[end]])) {
                    splits[start] = true
                    break
                }
            }
        }
        guard splits[0] else { return nil }
        var number = Composition()
        var start = 0
        while start < count {
            var taken = false
            for end in stride(from: min(count, start + 16), through: start + 2, by: -1) where splits[end] {
                let piece = String(key[bounds[start]..<bounds[end]])
                guard isPiece(piece) else { continue }
                if !connectors.contains(piece) {
                    let part: Composition.Part
                    if let factor = multipliers[piece] {
                        part = .times(factor)
                    } else if let value = table[piece] {
                        part = .plus(value)
                    } else {
                        continue
                    }
                    guard number.add(part) else { return nil }
                }
                start = end
                taken = true
                break
            }
            guard taken else { return nil }
        }
        return number.value
    }

    private func isPiece(_ piece: String) -> Bool {
        multipliers[piece] != nil || connectors.contains(piece) || table[piece] != nil
    }
}

/// A spelled-out number built part by part, as people say one: values added from larger
/// to smaller ("twenty" + "five", "deux mille" + "quatre-vingt"), multipliers applied to
/// what comes before them ("five" × "hundred", "twenty-five" × "thousand"). A part that
/// cannot continue the number ("five five", "thousand thousand") is refused, and the
/// number ends before it.
struct Composition {
    enum Part {
        case plus(Int64)
        case times(Int64)
    }

    /// Completed groups (each times a multiplier of 1,000 or more).
    private var total: Int64 = 0
    /// The group being said (under the last multiplier).
    private var group: Int64 = 0
    /// The last multiplier of 1,000 or more; a later one must be smaller.
    private var lastFactor = Int64.max
    private var parts = 0

    var value: Int64? { parts == 0 ? nil : total + group }

    /// Adds a part; false (and nothing changed) when it cannot continue the number.
    mutating func add(_ part: Part) -> Bool {
        switch part {
        case .plus(let value):
            // A smaller value after a round one: 20 + 5, 100 + 25, 2000 + 80; not 5 + 5.
            guard group == 0 || group % Composition.magnitude(above: value) == 0 else { return false }
            if group == 0, total > 0, value >= lastFactor { return false }
            group += value
        case .times(let factor) where factor == 100:
            guard group < 100, parts == 0 || group > 0 else { return false }
            group = max(group, 1) * 100
        case .times(let factor):
            guard factor < lastFactor, group < factor, parts == 0 || group > 0 else { return false }
            let (product, overflow) = max(group, 1).multipliedReportingOverflow(by: factor)
            guard !overflow else { return false }
            total += product
            group = 0
            lastFactor = factor
        }
        parts += 1
        return true
    }

    /// The power of ten just above `value` (5 → 10, 25 → 100, 100 → 1000).
    static func magnitude(above value: Int64) -> Int64 {
        var power: Int64 = 10
        while power <= value, power < 1_000_000_000_000 { power *= 10 }
        return power
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension NumberLexicon: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(language)
        image.write(table)
        image.write(longestPhrase)
        image.write(joiner)
        image.write(vocabulary)
        image.write(weakWords)
        image.write(connectors)
        image.write(multipliers)
        image.write(groupsWithSpace)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        language = try image.read()
        table = try image.read()
        longestPhrase = try image.read()
        joiner = try image.read()
        vocabulary = try image.read()
        weakWords = try image.read()
        connectors = try image.read()
        multipliers = try image.read()
        groupsWithSpace = try image.read()
        (pieceStarts, pieceEnds) = NumberLexicon.pieceSketches(table: table, multipliers: multipliers, connectors: connectors)
        vocabularyPrints = WordPrints(vocabulary)
    }

    /// The lexicon of `language`, read from its compiled image when one matches
    /// `numbers.json` and ICU's version (CLDR's spell-outs of every number up to 999 are what
    /// it is built from), else built and its image written.
    static func load(language: String, tokenizer: Tokenizer) throws -> NumberLexicon {
        let folder = LanguageResources.directory?.appendingPathComponent(language)
        let sources = ["numbers.json", "tokenizer.json"].compactMap { folder?.appendingPathComponent($0) }
        return try ImageCache.load("numbers", language: language, sources: sources) {
            try NumberLexicon(language: language, tokenizer: tokenizer)
        }.value
    }
}
