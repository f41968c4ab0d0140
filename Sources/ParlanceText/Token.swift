/// A half-open range of Unicode scalar offsets in the original text (records.md `span`).
public struct Span: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Offset of the span's first scalar.
    public let start: Int
    /// Offset just past the span's last scalar.
    public let end: Int

    /// Creates the span `start..<end`; `start` must not be after `end` (a precondition).
    public init(_ start: Int, _ end: Int) {
        precondition(start <= end, "span start after end")
        self.start = start
        self.end = end
    }

    /// The number of scalars in the span.
    public var count: Int { end - start }

    /// Encoded as `[start, end]`.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let start = try container.decode(Int.self)
        let end = try container.decode(Int.self)
        guard start <= end else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "span start after end") }
        self.init(start, end)
    }

    /// Encodes as `[start, end]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(start)
        try container.encode(end)
    }

    /// "[start, end)".
    public var description: String { "[\(start), \(end))" }
}

/// What a token is.
public enum TokenKind: String, Sendable, Codable, Hashable {
    /// `word`: letters, kana or ideographs; `number`: digits ("20", "3,5"); `punctuation`: a punctuation mark (",", "¿",
    /// "-"); `symbol`: any other visible character ("€", "%", an emoji).
    case word, number, punctuation, symbol
}

/// One token of an utterance, with the text as written and its normalized forms.
public struct Token: Sendable, Hashable, Codable {
    /// The characters as they appear in the utterance.
    public let text: String
    /// NFKC with case folding, with an elided or clitic form expanded ("d'" → "de",
    /// "mánda" → "manda").
    public let normalized: String
    /// The matching key: `normalized` with diacritics removed and apostrophes unified
    /// ("íñigo" → "inigo"). Equal keys are what matching compares.
    public let key: String
    /// The key in Latin letters, for matching across scripts ("Ёлка" → "elka",
    /// "北京" → "bei jing"); equal to `key` for text already in Latin script. Worked out when
    /// asked (ICU's transforms are dear, and only a few readers want it), unless given.
    public var latin: String { givenLatin ?? TextNormalizer.latinIfNeeded(key) }
    private let givenLatin: String?
    /// What the token is: a word, a number, punctuation or a symbol.
    public let kind: TokenKind
    /// Unicode scalar offsets in the utterance, end exclusive.
    public let span: Span

    /// Creates a token; `latin`, when not given, is the key's transliteration, worked out
    /// when asked (the key itself for text already in Latin script).
    public init(text: String, normalized: String, key: String, latin: String? = nil, kind: TokenKind, span: Span) {
        self.text = text
        self.normalized = normalized
        self.key = key
        self.givenLatin = latin
        self.kind = kind
        self.span = span
    }

    /// The same token with its span `offset` scalars further on.
    func moved(by offset: Int) -> Token {
        Token(
            text: text, normalized: normalized, key: key, latin: givenLatin, kind: kind,
            span: Span(span.start + offset, span.end + offset))
    }

    private enum CodingKeys: String, CodingKey { case text, normalized, key, latin, kind, span }

    /// Decodes the fields `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            text: try container.decode(String.self, forKey: .text), normalized: try container.decode(String.self, forKey: .normalized),
            key: try container.decode(String.self, forKey: .key), latin: try container.decode(String.self, forKey: .latin),
            kind: try container.decode(TokenKind.self, forKey: .kind), span: try container.decode(Span.self, forKey: .span))
    }

    /// Encodes text, normalized, key, latin (worked out now), kind and span.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(normalized, forKey: .normalized)
        try container.encode(key, forKey: .key)
        try container.encode(latin, forKey: .latin)
        try container.encode(kind, forKey: .kind)
        try container.encode(span, forKey: .span)
    }

    /// Tokens are equal when their text, forms, kind and span are (`latin` follows from `key`).
    public static func == (a: Token, b: Token) -> Bool {
        a.text == b.text && a.normalized == b.normalized && a.key == b.key && a.kind == b.kind && a.span == b.span
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(normalized)
        hasher.combine(key)
        hasher.combine(kind)
        hasher.combine(span)
    }

    /// Words and numbers: what phrases are made of.
    public var isContent: Bool { kind == .word || kind == .number }
}
