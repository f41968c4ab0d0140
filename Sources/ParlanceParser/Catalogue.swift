import Foundation
import ParlanceText

/// The intent catalogue (`Grammar/intents.json`, after `../shared/spec/intents.md`):
/// SiriKit domains, intents and their typed parameters. Language-independent.
public struct IntentCatalogue: Sendable, Decodable {
    public let intents: [IntentSpec]
    /// The vocabulary types (intents.md "Vocabulary types", plus `rideOptionName`).
    public let vocabularyTypes: [String]

    public func intent(_ name: String) -> IntentSpec? { intents.first { $0.name == name } }

    /// The built-in catalogue.
    public static let standard: IntentCatalogue = {
        guard let url = Bundle.module.url(forResource: "intents", withExtension: "json", subdirectory: "Grammar"),
            let data = try? Data(contentsOf: url),
            let catalogue = try? JSONGuard.decode(IntentCatalogue.self, from: data)
        else { fatalError("Grammar/intents.json is missing or malformed in the ParlanceParser bundle") }
        return catalogue
    }()
}

public struct IntentSpec: Sendable, Decodable, Hashable {
    public let domain: String
    public let name: String
    public let parameters: [ParameterSpec]

    public func parameter(_ name: String) -> ParameterSpec? { parameters.first { $0.name == name } }
}

public struct ParameterSpec: Sendable, Decodable, Hashable {
    /// What kind of value a parameter takes, and so how a template slot matches it.
    public enum ValueType: String, Sendable, Decodable, Hashable {
        /// Names and phrases: the words as said (person, place, string).
        case person, place, string
        /// Free text kept verbatim (message content, payment note).
        case text
        case currencyAmount, number, integer, date, dateRange, dateTime, boolean
        /// One of `values`, said in the language's words (`values.json`).
        case `enum`
    }

    public let name: String
    public let type: ValueType
    public let list: Bool
    /// The vocabulary type whose items help find (and later resolve) the value.
    public let vocabulary: String?
    public let values: [String]?
    /// Only known values match (the vocabulary of the context and the language's common
    /// ones): "start a Bananarific", never "start the robot vacuum".
    public let closed: Bool
    /// Unknown values match only reluctantly (a group or album name the user did not register).
    public let guarded: Bool
    /// The intent cannot be carried out without it: when it is not said, resolution answers
    /// `needsValue` ("Send a message with MonkeyChat" → to whom?).
    public let required: Bool

    enum CodingKeys: String, CodingKey { case name, type, list, vocabulary, values, closed, guarded, required }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        type = try c.decode(ValueType.self, forKey: .type)
        list = try c.decodeIfPresent(Bool.self, forKey: .list) ?? false
        vocabulary = try c.decodeIfPresent(String.self, forKey: .vocabulary)
        values = try c.decodeIfPresent([String].self, forKey: .values)
        closed = try c.decodeIfPresent(Bool.self, forKey: .closed) ?? false
        guarded = try c.decodeIfPresent(Bool.self, forKey: .guarded) ?? false
        required = try c.decodeIfPresent(Bool.self, forKey: .required) ?? false
    }

    /// Free-text slots: their extent is found by the template around them.
    var isFreeText: Bool { [.person, .place, .string, .text].contains(type) }
}
