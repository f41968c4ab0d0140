/// The tokens recognizers and phrase matching walk: every token but in-word hyphens
/// ("vingt-et-un", "segunda-feira"), so that a phrase matches with or without them.
struct TokenStream {
    let tokens: [Token]
    /// Token index of each unit.
    let indices: [Int]
    /// Matching key of each unit.
    let keys: [String]
    /// Normalized form of each unit (case folded, accents kept).
    var normalized: [String] { indices.map { tokens[$0].normalized } }

    /// The utterance's scalars, when known (to read what lies between tokens).
    let scalars: [Unicode.Scalar]

    init(_ tokens: [Token], text: String? = nil) {
        self.tokens = tokens
        self.scalars = text.map { Array($0.unicodeScalars) } ?? []
        var indices: [Int] = []
        var keys: [String] = []
        indices.reserveCapacity(tokens.count)
        keys.reserveCapacity(tokens.count)
        for (i, token) in tokens.enumerated() where !(token.kind == .punctuation && token.key == "-") {
            indices.append(i)
            keys.append(token.key)
        }
        self.indices = indices
        self.keys = keys
    }

    var count: Int { keys.count }

    func token(_ unit: Int) -> Token { tokens[indices[unit]] }

    /// The kind of a unit's token, read without copying the token.
    func kind(_ unit: Int) -> TokenKind { tokens[indices[unit]].kind }

    /// The span from the start of unit `start` to the end of unit `end - 1`.
    func span(_ start: Int, _ end: Int) -> Span { Span(token(start).span.start, token(end - 1).span.end) }

    /// Whether two adjacent units are separated by nothing but white space in the text
    /// (and not by a comma, say); `gap` is the number of scalars between them.
    func gap(_ unit: Int) -> Int { token(unit + 1).span.start - token(unit).span.end }

    /// The text between unit `unit` and the next one ("/" in "21/11").
    func between(_ unit: Int) -> String {
        let a = token(unit).span.end
        let b = token(unit + 1).span.start
        guard b <= scalars.count, a <= b else { return "" }
        return String(scalars: scalars[a..<b])
    }

    /// The original text of a span.
    func text(_ span: Span) -> String {
        guard span.end <= scalars.count else { return "" }
        return String(scalars: scalars[span.start..<span.end])
    }
}

extension Tokenizer {
    /// The unit keys of a phrase, as `TokenStream` would see it in an utterance.
    func phraseKeys(_ phrase: String) -> [String] { TokenStream(tokenize(phrase)).keys }
}
