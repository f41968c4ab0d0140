import ParlanceICU

/// Splits an utterance into tokens with ICU word breaking for the language (dictionary
/// segmentation for Japanese, Chinese, Thai), then splits what ICU keeps together but
/// matching needs apart: elisions ("d'hier" → "d'" + "hier"), enclitic pronouns
/// ("mándale" → "manda" + "le"), a number glued to a unit ("20km" → "20" + "km").
///
/// Thread-safe: every call borrows its own break iterator.
public final class Tokenizer: Sendable {
    /// The language code the tokenizer was made for ("fr").
    public let language: String
    private let breaker: WordBreaker
    /// Elided forms by key, longest first: ("qu'", "que").
    private let elisions: [(key: String, expansion: String)]
    private let clitics: CliticSplitter?
    private let suffixes: [String]

    /// Makes a language's tokenizer from ICU's word rules and `Languages/<language>/tokenizer.json`. Throws
    /// `LanguageDataError` when the file is missing or malformed, and `ICUError` when ICU cannot break the language's
    /// text into words.
    public convenience init(language: String) throws {
        let data = try LanguageResources.load(TokenizerData.self, file: "tokenizer.json", language: language)
        try self.init(language: language, data: data)
    }

    init(language: String, data: TokenizerData) throws {
        self.language = language
        self.breaker = try WordBreaker(locale: language)
        self.elisions = data.elisions.map { (TextNormalizer.key($0.key), $0.value) }.sorted { $0.key.count > $1.key.count }
        self.clitics = data.clitics.map(CliticSplitter.init)
        self.suffixes = data.suffixes.map(TextNormalizer.key).sorted { $0.count > $1.count }
        self.elisionLengths = elisions.map(\.key.count)
        self.suffixLengths = suffixes.map(\.count)
    }

    /// Each elision's and each suffix's length in characters, counted once.
    private let elisionLengths: [Int]
    private let suffixLengths: [Int]

    /// The tokens of `text`, in order. Whitespace and invisible format characters (bidi
    /// controls, zero-width joiners between words) are not tokens.
    public func tokenize(_ text: String) -> [Token] { tokenize(text, remembering: true) }

    /// `tokenize(_:)`; without `remembering`, every word is split anew (for tests that compare).
    func tokenize(_ text: String, remembering: Bool) -> [Token] {
        let utf16 = Array(text.utf16)
        guard !utf16.isEmpty, let segments = try? breaker.segments(utf16) else { return [] }
        let offsets = ScalarOffsets(utf16)
        var tokens: [Token] = []
        tokens.reserveCapacity(segments.count / 2 + 1)
        for segment in Self.splitAtSpaces(segments, utf16) {
            let piece = Self.string(utf16[segment.start..<segment.end])
            let span = Span(offsets[segment.start], offsets[segment.end])
            switch segment.category {
            case .number:
                tokens.append(makeToken(piece, span: span, kind: .number))
            case .letter, .kana, .ideographic:
                if remembering { splitKnown(piece, span: span, into: &tokens) } else { splitWord(piece, span: span, into: &tokens) }
            case .none:
                guard let kind = Self.classify(piece) else { continue }
                tokens.append(makeToken(piece, span: span, kind: kind))
            }
        }
        return tokens
    }

    /// A piece of UTF-16 as a string; ASCII (nearly every word) copied byte by byte, with no
    /// transcoding.
    static func string(_ utf16: ArraySlice<UInt16>) -> String {
        utf16.withUnsafeBufferPointer { units in
            guard units.allSatisfy({ $0 < 0x80 }) else { return String(decoding: units, as: UTF16.self) }
            return String(unsafeUninitializedCapacity: units.count) { bytes in
                for (i, unit) in units.enumerated() { bytes[i] = UInt8(truncatingIfNeeded: unit) }
                return units.count
            }
        }
    }

    /// `key`, when given, is `TextNormalizer.key(text)`, which is the key of the folded text
    /// too (folding is NFKC case folding, which the key begins with and which changes nothing
    /// done twice): it is not worked out again.
    private func makeToken(_ text: String, span: Span, kind: TokenKind, normalized: String? = nil, key: String? = nil) -> Token {
        let normalized = normalized ?? TextNormalizer.fold(text)
        let key = key ?? TextNormalizer.key(normalized)
        return Token(text: text, normalized: normalized, key: key, kind: kind, span: span)
    }

    /// Which tokenizer a memo entry is of (`SplitMemo.Key`).
    private let serial = MemoOwner.next()

    /// `splitWord` through the thread's memo (`SplitMemo`): a word met before on this thread,
    /// by this tokenizer, gets the tokens it got then, moved to its span (the same words come
    /// back line after line, and the elision, suffix and clitic tests cost thousands of
    /// instructions a word).
    private func splitKnown(_ word: String, span: Span, into tokens: inout [Token]) {
        let length = span.end - span.start
        let key = SplitMemo.Key(tokenizer: serial, word: word, length: length)
        let pieces = SplitMemo.local.value.value(of: key, bytes: word.utf8.count) {
            // The word alone, from offset 0: `splitWord` places every piece relative to the
            // span's ends, so the pieces move with the span.
            var made: [Token] = []
            splitWord(word, span: Span(0, length), into: &made)
            return made
        }
        for piece in pieces { tokens.append(piece.moved(by: span.start)) }
    }

    private func splitWord(_ word: String, span: Span, into tokens: inout [Token]) {
        // (The word's scalars are made only for a word that may be cut. An ASCII digit is the
        // only ASCII scalar with a numeric type.)
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }
        // A number glued to letters: "20km", "5th", "1er".
        if let first = word.unicodeScalars.first, isDigit(first) {
            let scalars = Array(word.unicodeScalars)
            let digits = scalars.prefix(while: isDigit).count
            if digits < scalars.count, scalars[digits].properties.isAlphabetic {
                tokens.append(
                    makeToken(
                        String(scalars: scalars[..<digits]), span: Span(span.start, span.start + digits), kind: .number))
                splitWord(String(scalars: scalars[digits...]), span: Span(span.start + digits, span.end), into: &tokens)
                return
            }
        }
        let key = TextNormalizer.key(word)
        let keyCount = key.characterCount  // once: counting a long word's characters is its length
        // Elision: "d'hier", "l’album", "qu'il".
        for (n, elision) in elisions.enumerated() where keyCount > elisionLengths[n] && key.hasPrefix(elision.key) {
            let scalars = Array(word.unicodeScalars)
            let length = elision.key.unicodeScalars.count
            guard length < scalars.count else { break }
            tokens.append(
                makeToken(
                    String(scalars: scalars[..<length]), span: Span(span.start, span.start + length), kind: .word,
                    normalized: elision.expansion))
            splitWord(String(scalars: scalars[length...]), span: Span(span.start + length, span.end), into: &tokens)
            return
        }
        for (n, suffix) in suffixes.enumerated() where keyCount > suffixLengths[n] + 1 && key.hasSuffix(suffix) {
            let scalars = Array(word.unicodeScalars)
            let length = suffix.unicodeScalars.count
            guard length < scalars.count else { break }
            splitWord(
                String(scalars: scalars[..<(scalars.count - length)]), span: Span(span.start, span.end - length),
                into: &tokens)
            tokens.append(
                makeToken(
                    String(scalars: scalars[(scalars.count - length)...]), span: Span(span.end - length, span.end),
                    kind: .word))
            return
        }
        if let clitics, case let scalars = Array(word.unicodeScalars), let split = clitics.split(scalars) {
            var start = span.start
            tokens.append(
                makeToken(
                    String(scalars: scalars[..<split.baseLength]), span: Span(start, start + split.baseLength),
                    kind: .word, normalized: split.baseNormalized))
            start += split.baseLength
            for pronoun in split.pronouns {
                let text = String(scalars: scalars[(start - span.start)..<(start - span.start + pronoun.length)])
                tokens.append(makeToken(text, span: Span(start, start + pronoun.length), kind: .word, normalized: pronoun.normalized))
                start += pronoun.length
            }
            return
        }
        tokens.append(makeToken(word, span: span, kind: .word, key: key))
    }

    /// ICU joins across U+202F NARROW NO-BREAK SPACE (an ExtendNumLet since Unicode 14), so
    /// French "5\u{202F}km" and "1\u{202F}234" come as one segment: split them at the space.
    static func splitAtSpaces(_ segments: [WordSegment], _ utf16: [UInt16]) -> [WordSegment] {
        func isSpace(_ unit: UInt16) -> Bool { unit == 0x202F || unit == 0x00A0 || unit == 0x2007 }
        guard
            segments.contains(where: { $0.category != .none && $0.end - $0.start > 1 && utf16[$0.start..<$0.end].contains(where: isSpace) })
        else {
            return segments
        }
        var result: [WordSegment] = []
        for segment in segments {
            guard segment.category != .none, utf16[segment.start..<segment.end].contains(where: isSpace) else {
                result.append(segment)
                continue
            }
            var start = segment.start
            for i in segment.start...segment.end where i == segment.end || isSpace(utf16[i]) {
                if i > start {
                    let first = utf16[start]
                    let category: WordSegment.Category =
                        (0x30...0x39).contains(first) ? .number : segment.category == .number ? .letter : segment.category
                    result.append(WordSegment(start: start, end: i, category: category))
                }
                start = i + 1
            }
        }
        return result
    }

    /// Punctuation or symbol for a segment ICU's word rules leave unclassified; nil for
    /// whitespace and invisible characters.
    static func classify(_ piece: String) -> TokenKind? {
        // The first visible scalar decides; an ASCII one by the table made once.
        for scalar in piece.unicodeScalars {
            if let kind = scalar.isASCII ? asciiKinds[Int(scalar.value)] : visibleKind(scalar) { return kind }
        }
        return nil
    }

    /// `visibleKind` of each ASCII scalar, worked out once from Unicode's properties.
    private static let asciiKinds: [TokenKind?] = (0..<128).map { visibleKind(Unicode.Scalar(UInt8($0))) }

    /// Nil for white space and invisible characters (format and control), else `kind(of:)`.
    private static func visibleKind(_ scalar: Unicode.Scalar) -> TokenKind? {
        let properties = scalar.properties
        if properties.isWhitespace || properties.generalCategory == .format || properties.generalCategory == .control { return nil }
        return kind(of: scalar)
    }

    /// Punctuation or symbol, by a visible scalar's general category.
    private static func kind(of scalar: Unicode.Scalar) -> TokenKind {
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return .punctuation
        default:
            return .symbol
        }
    }
}

/// Maps UTF-16 offsets of a text to Unicode scalar offsets.
struct ScalarOffsets {
    private let table: [Int32]

    init(_ utf16: [UInt16]) {
        var table = [Int32](repeating: 0, count: utf16.count + 1)
        var scalar: Int32 = 0
        var i = 0
        while i < utf16.count {
            table[i] = scalar
            if UTF16.isLeadSurrogate(utf16[i]), i + 1 < utf16.count, UTF16.isTrailSurrogate(utf16[i + 1]) {
                table[i + 1] = scalar
                i += 2
            } else {
                i += 1
            }
            scalar += 1
        }
        table[utf16.count] = scalar
        self.table = table
    }

    subscript(_ utf16Offset: Int) -> Int { Int(table[utf16Offset]) }
}

/// Splits enclitic pronouns off verb forms, from the language's `tokenizer.json`.
struct CliticSplitter: Sendable {
    struct Split {
        var baseLength: Int
        var baseNormalized: String
        var pronouns: [(length: Int, normalized: String)]
    }

    private let pronouns: [String: String]
    private let longestPronoun: Int
    private let verbs: [String: String]
    private let verbEndings: [String]
    private let accentFolding: [Character: Character]
    private let maxPronouns: Int

    init(_ data: TokenizerData.CliticData) {
        var pronouns: [String: String] = [:]
        for (form, normalized) in data.pronouns { pronouns[TextNormalizer.key(form)] = normalized }
        self.pronouns = pronouns
        self.longestPronoun = pronouns.keys.map(\.count).max() ?? 0
        var verbs: [String: String] = [:]
        for verb in data.verbs where verbs[TextNormalizer.key(verb)] == nil { verbs[TextNormalizer.key(verb)] = TextNormalizer.fold(verb) }
        self.verbs = verbs
        self.verbEndings = data.verbEndings.map(TextNormalizer.key)
        var folding: [Character: Character] = [:]
        for (from, to) in data.accentFolding { if let f = from.first, let t = to.first { folding[f] = t } }
        self.accentFolding = folding
        self.maxPronouns = data.maxPronouns
    }

    func split(_ scalars: [Unicode.Scalar]) -> Split? {
        guard !pronouns.isEmpty, scalars.count >= 3 else { return nil }
        return split(scalars, end: scalars.count, found: [])
    }

    private func split(_ scalars: [Unicode.Scalar], end: Int, found: [(Int, String)]) -> Split? {
        guard found.count < maxPronouns else { return nil }
        for length in stride(from: min(longestPronoun, end - 2), through: 1, by: -1) {
            let suffix = String(scalars: scalars[(end - length)..<end])
            guard let normalized = pronouns[TextNormalizer.key(suffix)] else { continue }
            let pronounsSoFar = [(length, normalized)] + found
            let base = String(scalars: scalars[..<(end - length)])
            if let baseNormalized = verbForm(base) {
                return Split(baseLength: end - length, baseNormalized: baseNormalized, pronouns: pronounsSoFar)
            }
            if let deeper = split(scalars, end: end - length, found: pronounsSoFar) { return deeper }
        }
        return nil
    }

    /// The normalized verb when `base` is a verb form that takes clitics.
    private func verbForm(_ base: String) -> String? {
        let key = TextNormalizer.key(base)
        if let verb = verbs[key] { return verb }
        guard key.count >= 4, verbEndings.contains(where: { key.hasSuffix($0) }) else { return nil }
        return String(TextNormalizer.fold(base).map { accentFolding[$0] ?? $0 })
    }
}

/// The tokens each word of letters became (`Tokenizer.splitKnown`), spans from 0, kept per
/// thread (`WordMemo`): by tokenizer, word and the span's length in scalars.
enum SplitMemo {
    struct Key: Hashable {
        let tokenizer: Int
        let word: String
        let length: Int
    }

    static let limit = 8_192
    static let longest = 64
    static let local = ThreadLocal { WordMemo<Key, [Token]>(limit: limit, longest: longest) }
}
