import Foundation
import ParlanceText

/// What the parser understood from one utterance.
public struct ParseResult: Sendable, Hashable, Codable {
    /// The best intent, or nil when nothing matched (out of domain) or the named app does
    /// not handle the request (see `reason`).
    public let intent: IntentFrame?
    /// Other intents that also matched, best first.
    public let alternatives: [IntentFrame]
    /// Why there is no intent, when there is none.
    public let reason: String?
    /// How the decision was made.
    public let explanation: Explanation
}

/// An intent with its app and parameters.
public struct IntentFrame: Sendable, Hashable, Codable {
    public let domain: String
    public let name: String
    /// The app named or inferred; nil when several apps handle the intent and none was named.
    public let app: String?
    public let confidence: Double
    /// In utterance order; a list parameter appears once per value.
    public let parameters: [Parameter]

    /// The values of a parameter, in utterance order.
    public func values(_ name: String) -> [Parameter] { parameters.filter { $0.name == name } }
}

/// One parameter value: what was said, where, and its typed value.
public struct Parameter: Sendable, Hashable, Codable {
    public let name: String
    public let value: ParameterValue
    /// The words as said (also for typed values: "veinte euros").
    public let raw: String
    /// Unicode scalar offsets in the utterance, end exclusive; nil for values the template fixes.
    public let span: Span?
}

/// A typed parameter value. Encoded as records.md says: a string for words and enum cases,
/// `{"amount", "currency"}` for amounts, ISO 8601 strings or `{"start", "end"}` for dates.
public enum ParameterValue: Sendable, Hashable, Codable {
    case text(String)
    case number(Decimal)
    case currencyAmount(CurrencyAmount)
    case date(String)
    case dateRange(DateRange)
    case enumCase(String)
    case boolean(Bool)

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .text(let s), .date(let s), .enumCase(let s): try c.encode(s)
        case .number(let n): try c.encode(n)
        case .currencyAmount(let a): try c.encode(a)
        case .dateRange(let r): try c.encode(r)
        case .boolean(let b): try c.encode(b)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { self = .boolean(b) }
        else if let n = try? c.decode(Decimal.self) { self = .number(n) }
        else if let a = try? c.decode(CurrencyAmount.self) { self = .currencyAmount(a) }
        else if let r = try? c.decode(DateRange.self) { self = .dateRange(r) }
        else { self = .text(try c.decode(String.self)) }
    }

    /// The value as JSON-comparable text (for evaluation and display).
    public var display: String {
        switch self {
        case .text(let s), .date(let s), .enumCase(let s): s
        case .number(let n): "\(n)"
        case .currencyAmount(let a): "\(a.amount) \(a.currency)"
        case .dateRange(let r): "\(r.start)/\(r.end)"
        case .boolean(let b): "\(b)"
        }
    }
}

/// Which template or model decided, with scores.
public struct Explanation: Sendable, Hashable, Codable {
    /// "template", "fallback" or "none".
    public let decidedBy: String
    /// The template's file and line ("en/messaging.sentences:12"), or the model's name.
    public let source: String?
    public let score: Double?
    /// The app mention found, if any, with how it was said.
    public let appMention: String?
    /// Notes on the decision ("'MоnkeyChat' mixes scripts: not taken as MonkeyChat").
    public let notes: [String]
}
