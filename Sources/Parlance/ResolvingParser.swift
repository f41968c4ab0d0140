import ParlanceContext
import ParlanceParser
import ParlanceResolver
import ParlanceText

/// The intent parser followed by the resolver: parameters come out with their resolution.
public struct ResolvingParser: UtteranceParser {
    /// The intent parser, which runs first.
    public let parser: IntentParser
    /// The resolver applied to the parsed intent.
    public let resolver: Resolver

    /// Chains a parser and a resolver. Give them the same `VocabularyStore` (and donation log),
    /// so that every vocabulary update reaches parsing and resolution together; `init(context:)`
    /// does.
    public init(parser: IntentParser, resolver: Resolver) {
        self.parser = parser
        self.resolver = resolver
    }

    /// An intent parser and a resolver for one context, sharing one vocabulary store (filled
    /// from the context, or `store`) and the context's donation log. Throws when the parser
    /// cannot be built for the context.
    public init(context: ParserContext, store: VocabularyStore? = nil) throws {
        let donations = DonationLog(context.donations)
        let store = store ?? VocabularyStore(context: context)
        self.init(
            parser: try IntentParser(context: context, vocabulary: store, donations: donations),
            resolver: Resolver(context: context, store: store, donations: donations))
    }

    /// The vocabulary store both the parser and the resolver read: update user vocabulary
    /// through it.
    public var store: VocabularyStore { resolver.store }

    /// Parses an utterance, then resolves the best intent's parameters, weighing donations at `referenceTime` (default: now);
    /// alternatives are left unresolved. Throws what the parser throws, or a `ResolverError`.
    public func parse(_ text: String, locale: ParlanceLocale, referenceTime: ReferenceTime = .now()) throws -> ParseResult {
        let result = try parser.parse(text, locale: locale, referenceTime: referenceTime)
        guard let intent = result.intent else { return result }
        return ParseResult(
            intent: try resolver.resolve(intent, locale: locale, time: referenceTime.secondsSince1970), alternatives: result.alternatives,
            reason: result.reason, explanation: result.explanation, shortcut: result.shortcut)
    }
}
