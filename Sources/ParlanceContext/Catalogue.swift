import Foundation
import ParlanceText

/// The intent catalogue (`Data/intents.json`, after `../shared/spec/intents.md`):
/// SiriKit domains, intents and their typed parameters. Language-independent.
public struct IntentCatalogue: Sendable, Decodable {
    /// Every intent of the catalogue, in file order.
    public let intents: [IntentSpec]
    /// The vocabulary types (intents.md "Vocabulary types", plus `rideOptionName`).
    public let vocabularyTypes: [String]

    /// Each intent's place in `intents` by name (the first of a name).
    private let places: [String: Int]

    /// The intent named `name` ("sendMessage"), or nil when the catalogue has none of that name.
    public func intent(_ name: String) -> IntentSpec? { places[name].map { intents[$0] } }

    private enum CodingKeys: String, CodingKey { case intents, vocabularyTypes }

    /// Reads `intents` and `vocabularyTypes`, and indexes the intents by name.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        intents = try c.decode([IntentSpec].self, forKey: .intents)
        vocabularyTypes = try c.decode([String].self, forKey: .vocabularyTypes)
        var places: [String: Int] = [:]
        for (n, intent) in intents.enumerated() where places[intent.name] == nil { places[intent.name] = n }
        self.places = places
    }

    /// The built-in catalogue.
    public static let standard: IntentCatalogue = {
        guard let url = Bundle.module.url(forResource: "intents", withExtension: "json", subdirectory: "Data"),
            let data = try? Data(contentsOf: url),
            let catalogue = try? JSONGuard.decode(IntentCatalogue.self, from: data)
        else { fatalError("Data/intents.json is missing or malformed in the ParlanceContext bundle") }
        return catalogue
    }()
}

/// One intent of the catalogue (intents.md table): its domain, its name and its typed parameters.
public struct IntentSpec: Sendable, Decodable, Hashable {
    /// The SiriKit domain ("messaging", "payments", "rides").
    public let domain: String
    /// The intent's name: SiriKit's class name without `IN` and `Intent`, in lower camel case
    /// (`INSendMessageIntent` → "sendMessage").
    public let name: String
    /// The intent's parameters, in catalogue order; empty for an intent that takes none
    /// (`getRideStatus`).
    public let parameters: [ParameterSpec]

    /// The parameter named `name`, or nil when the intent has none of that name.
    public func parameter(_ name: String) -> ParameterSpec? { parameters.first { $0.name == name } }
}

/// One parameter of a catalogue intent: its SiriKit name, the type of its values, whether it takes a
/// list, and how its values are found and resolved (an entry of `parameters` in
/// `Data/intents.json`).
public struct ParameterSpec: Sendable, Decodable, Hashable {
    /// What kind of value a parameter takes, and so how a template slot matches it.
    public enum ValueType: String, Sendable, Decodable, Hashable {
        /// Names and phrases: the words as said (person, place, string).
        case person, place, string
        /// Free text kept verbatim (message content, payment note).
        case text
        /// Typed values the text layer reads: an amount with its currency, a decimal number, a whole
        /// number, a date, a date range, a date with a time, and yes or no.
        case currencyAmount, number, integer, date, dateRange, dateTime, boolean
        /// When a reminder fires: a date, a date-time or a repetition ("tomorrow at 9", "every
        /// Monday"), as `TemporalTrigger`.
        case temporalTrigger
        /// Where a reminder fires: arriving at or leaving a place ("when I get home"), as
        /// `SpatialTrigger`.
        case spatialTrigger
        /// One of `values`, said in the language's words (`values.json`).
        case `enum`
    }

    /// The SiriKit property name ("recipients", "currencyAmount").
    public let name: String
    /// The type of the parameter's values.
    public let type: ValueType
    /// Whether the parameter takes several values ("recipients"): a parse then has one `Parameter` per
    /// value, in utterance order.
    public let list: Bool
    /// The vocabulary type whose items help find (and later resolve) the value.
    public let vocabulary: String?
    /// For an `enum` parameter, its case names ("read", "unread", "flagged", "unflagged"); nil for
    /// other types.
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

    /// Decodes an entry of `Data/intents.json`; `list`, `closed`, `guarded` and `required` are false
    /// when absent.
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
    var isFreeText: Bool { [.person, .place, .string, .text, .spatialTrigger].contains(type) }
}
