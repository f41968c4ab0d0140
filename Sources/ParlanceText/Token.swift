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
    /// "北京" → "bei jing"); equal to `key` for text already in Latin script.
    public let latin: String
    /// What the token is: a word, a number, punctuation or a symbol.
    public let kind: TokenKind
    /// Unicode scalar offsets in the utterance, end exclusive.
    public let span: Span

    /// Creates a token; `latin` defaults to `key`, right for text already in Latin script.
    public init(text: String, normalized: String, key: String, latin: String? = nil, kind: TokenKind, span: Span) {
        self.text = text
        self.normalized = normalized
        self.key = key
        self.latin = latin ?? key
        self.kind = kind
        self.span = span
    }

    /// Words and numbers: what phrases are made of.
    public var isContent: Bool { kind == .word || kind == .number }
}
