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
/// and "vingt et un" are all there). Numbers the table lacks ("two thousand five hundred")
/// go to ICU's lenient spell-out parse, which is slower but rarely needed.
struct NumberLexicon: Sendable {
    let language: String
    private let table: [String: Decimal]
    private let longestPhrase: Int
    /// Every key that occurs in a spelled-out number.
    private let vocabulary: Set<String>
    private let weakWords: Set<String>
    private let connectors: Set<String>
    private let lenient: NumberFormat?
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
        var table: [String: Decimal] = [:]
        for (n, ruleSet) in ruleSets.enumerated() {
            // The first rule sets give every value; variants (-feminine, -n, -r …) differ
            // only in small numbers and their compounds, so they get fewer values.
            let subset = n < 3 ? values : values.filter { $0 < 100 || $0 % 100 == 1 }
            for value in subset {
                let phrase = try spellOut.format(value, ruleSet: ruleSet)
                let key = NumberLexicon.split(phrase).joined(separator: " ")
                if table[key] == nil { table[key] = Decimal(value) }
            }
        }
        for (word, value) in data.extraWords {
            table[tokenizer.phraseKeys(word).joined(separator: " ")] = Decimal(value)
        }
        self.table = table
        self.longestPhrase = table.keys.map { $0.split(separator: " ").count }.max() ?? 1
        let connectors = Set(data.connectors.map(TextNormalizer.key))
        self.connectors = connectors
        self.vocabulary = Set(table.keys.flatMap { $0.split(separator: " ").map(String.init) }).union(connectors)
        self.weakWords = Set(data.weakWords.map(TextNormalizer.key))
        self.lenient = try? NumberFormat(locale: language, style: .spellOut, lenient: true)
        let decimal = try NumberFormat(locale: language, style: .decimal)
        let grouping = (try? decimal.symbol(.groupingSeparator)) ?? ","
        self.groupsWithSpace = grouping.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    }

    /// Keys of a spelled-out phrase as ICU writes it: words separated by spaces or hyphens.
    static func split(_ phrase: String) -> [String] {
        TextNormalizer.key(phrase).split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "\u{00A0}" }).map(String.init)
    }

    /// Every number in the stream, left to right, not overlapping.
    func find(in stream: TokenStream, decimal: NumberFormat) -> [NumberMatch] {
        var matches: [NumberMatch] = []
        // ICU's lenient parse is slow (milliseconds a call): each text is asked once per
        // utterance, so that a run of the same number words ("thousand thousand …") costs
        // a few calls, not several per word.
        var calls = LenientCalls()
        var i = 0
        while i < stream.count {
            if let match = digits(at: i, in: stream, decimal: decimal) ?? words(at: i, in: stream, calls: &calls) {
                matches.append(match)
                i = match.end
            } else {
                i += 1
            }
        }
        return matches
    }

    private func digits(at i: Int, in stream: TokenStream, decimal: NumberFormat) -> NumberMatch? {
        let token = stream.token(i)
        // No amount anyone says is longer than a word may be; longer runs of digits (a pasted
        // identifier, a fuzzed line) are left as they are rather than handed to ICU whole.
        guard token.kind == .number, token.text.utf8.count <= WordLength.longest else { return nil }
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

    private func words(at i: Int, in stream: TokenStream, calls: inout LenientCalls) -> NumberMatch? {
        let first = stream.keys[i]
        if !vocabulary.contains(first) || connectors.contains(first) {
            return compound(at: i, in: stream, calls: &calls)
        }
        // The run of number words (a connector only between two of them).
        var end = i
        while end < stream.count, end - i < 12, vocabulary.contains(stream.keys[end]), stream.token(end).kind == .word {
            end += 1
        }
        while end > i, connectors.contains(stream.keys[end - 1]) { end -= 1 }
        // The longest prefix of the run that the table has.
        for length in stride(from: min(end - i, longestPhrase), through: 1, by: -1) {
            let key = stream.keys[i..<(i + length)].joined(separator: " ")
            guard let value = table[key] else { continue }
            // A longer run the table lacks ("two thousand five hundred"): ask ICU.
            if end - i > length, let longer = lenientParse(stream, i, end, calls: &calls), longer.end > i + length {
                return longer
            }
            let weak = length == 1 && weakWords.contains(key)
            return NumberMatch(start: i, end: i + length, value: value, isDigits: false, isWeak: weak)
        }
        return end - i > 1 ? lenientParse(stream, i, end, calls: &calls) : nil
    }

    /// A single word that contains a number word without being in the table, as German
    /// compounds do ("zweitausendfünfhundert").
    private func compound(at i: Int, in stream: TokenStream, calls: inout LenientCalls) -> NumberMatch? {
        let key = stream.keys[i]
        guard key.count >= 8, stream.token(i).kind == .word, isMadeOfNumberWords(key),
            let decimal = parseWhole(stream.token(i).normalized, calls: &calls), let value = Decimal(string: decimal)
        else { return nil }
        return NumberMatch(start: i, end: i + 1, value: value, isDigits: false, isWeak: false)
    }

    /// Whether a word splits entirely into number words ("zweitausendfünfhundert" →
    /// zwei·tausend·fünf·hundert), which is cheap to check, unlike ICU's lenient parse.
    private func isMadeOfNumberWords(_ key: String) -> Bool {
        let characters = Array(key)
        var reachable = [Bool](repeating: false, count: characters.count + 1)
        reachable[0] = true
        for start in 0..<characters.count where reachable[start] {
            for end in stride(from: start + 2, through: min(characters.count, start + 12), by: 1) where !reachable[end] {
                if vocabulary.contains(String(characters[start..<end])) { reachable[end] = true }
            }
        }
        return reachable[characters.count]
    }

    /// How many texts one utterance may ask ICU's lenient parse about (a millisecond or so
    /// each): past it, numbers come from the table alone, so no utterance of number words
    /// costs more than a few tens of milliseconds. Real requests ask a handful.
    static let lenientCallsPerUtterance = 48

    /// What one utterance has asked ICU's lenient parse: the answers, and the calls left.
    struct LenientCalls {
        var answers: [String: String?] = [:]
        var left = NumberLexicon.lenientCallsPerUtterance
    }

    /// ICU's lenient parse of a whole text, asked once per text and utterance, within the budget.
    private func parseWhole(_ text: String, calls: inout LenientCalls) -> String? {
        if let known = calls.answers[text] { return known }
        guard calls.left > 0 else { return nil }
        calls.left -= 1
        let parsed = lenient?.parseWhole(text)
        calls.answers[text] = parsed
        return parsed
    }

    /// The longest prefix of units [start, end) that ICU's lenient parse reads completely.
    private func lenientParse(_ stream: TokenStream, _ start: Int, _ end: Int, calls: inout LenientCalls) -> NumberMatch? {
        guard lenient != nil else { return nil }
        for last in stride(from: end, to: start + 1, by: -1) {
            let text = (start..<last).map { stream.token($0).normalized }.joined(separator: " ")
            if let decimal = parseWhole(text, calls: &calls), let value = Decimal(string: decimal) {
                return NumberMatch(start: start, end: last, value: value, isDigits: false, isWeak: false)
            }
        }
        return nil
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
