import ParlanceICU

/// The text layer's entry point: tokens and typed values of an utterance in a locale.
///
/// ```swift
/// let analyzer = TextAnalyzer.shared
/// let analysis = try analyzer.analyze("Paga veinte euros a Bobo", locale: ParlanceLocale("es-ES"),
///                                     referenceTime: ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00"))
/// analysis.entities  // [currencyAmount {"amount": 20, "currency": "EUR"} at [5, 17)]
/// ```
///
/// Thread-safe: call it from as many tasks as you like. Each language's data is built once,
/// on first use, and shared.
public final class TextAnalyzer: Sendable {
    /// A process-wide analyzer: with it, each language pack is built once however many callers there are.
    public static let shared = TextAnalyzer()

    private let packs = Locked<[String: LanguagePack]>([:])

    /// Creates an analyzer with no language packs yet. Each analyzer builds and keeps its own packs, so prefer `shared`.
    public init() {}

    /// The language pack for a locale's language, built on first use.
    public func pack(for locale: ParlanceLocale) throws -> LanguagePack {
        try packs.withLock { packs in
            if let pack = packs[locale.language] { return pack }
            let pack = try LanguagePack(language: locale.language)
            packs[locale.language] = pack
            return pack
        }
    }

    /// The tokens of an utterance.
    public func tokenize(_ text: String, locale: ParlanceLocale) throws -> [Token] {
        try pack(for: locale).tokenizer.tokenize(text)
    }

    /// Tokens and typed values (numbers, amounts, dates, durations, distances).
    public func analyze(_ text: String, locale: ParlanceLocale, referenceTime: ReferenceTime) throws -> TextAnalysis {
        let (tokens, entities) = try tokensAndEntities(text, locale: locale, referenceTime: referenceTime)
        return TextAnalysis(locale: locale, text: text, referenceTime: referenceTime.description, tokens: tokens, entities: entities)
    }

    /// The analysis's tokens and typed values alone, for a caller that reads nothing else
    /// (the parser: no reference time written out as text per utterance).
    package func tokensAndEntities(_ text: String, locale: ParlanceLocale, referenceTime: ReferenceTime) throws -> (
        tokens: [Token], entities: [Entity]
    ) {
        let pack = try pack(for: locale)
        let tokens = pack.tokenizer.tokenize(text)
        return (tokens, pack.entities(in: tokens, text: text, locale: locale, reference: referenceTime))
    }
}

/// What `parlance tokens` prints: the utterance, its tokens and its typed values.
public struct TextAnalysis: Sendable, Hashable, Codable {
    /// The locale the utterance was analyzed in.
    public let locale: ParlanceLocale
    /// The utterance as given.
    public let text: String
    /// The reference time dates were resolved against (ISO 8601).
    public let referenceTime: String
    /// The utterance's tokens, in order.
    public let tokens: [Token]
    /// The typed values found, left to right, not overlapping.
    public let entities: [Entity]
}

/// The version of the system ICU behind the text layer, e.g. "72.1".
public var icuVersion: String { ParlanceICU.icuVersion }
