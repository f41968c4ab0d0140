import Foundation
import ParlanceText

/// Turns an utterance into a `ParseResult`: the intent parser alone (`IntentParser`), or the
/// parser followed by the resolver (`ParlanceResolver.ResolvingParser`).
public protocol UtteranceParser: Sendable {
    /// Parses one utterance in a locale, resolving relative dates against `referenceTime`.
    ///
    /// Throws when it cannot parse at all (a language without a grammar, a parse over its work budget);
    /// finding no intent is a result with a nil `intent`, not an error.
    func parse(_ text: String, locale: ParlanceLocale, referenceTime: ReferenceTime) throws -> ParseResult
}

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
    /// When the utterance said one of the user's shortcut phrases: `success` with that
    /// shortcut (id, phrase, score), or `disambiguation` between the 2 or more shortcuts it
    /// is equally near (then `intent` is nil and `alternatives` holds their frames).
    public let shortcut: Resolution?
    /// The app the request names that the user does not have (a well-known service or an
    /// app of the context's `installedApps`): then `intent` is nil (records.md extension).
    public let unavailableApp: String?

    /// A result with its intent (nil for none), alternatives, reason and explanation, and the shortcut
    /// and unavailable app when they apply.
    public init(
        intent: IntentFrame?, alternatives: [IntentFrame], reason: String?, explanation: Explanation, shortcut: Resolution? = nil,
        unavailableApp: String? = nil
    ) {
        self.intent = intent
        self.alternatives = alternatives
        self.reason = reason
        self.explanation = explanation
        self.shortcut = shortcut
        self.unavailableApp = unavailableApp
    }
}

/// An intent with its app and parameters.
public struct IntentFrame: Sendable, Hashable, Codable {
    /// The intent's domain ("messaging"); "custom" for an intent an app declares.
    public let domain: String
    /// The intent's name, from the catalogue ("sendMessage") or the app's declaration ("orderSoup").
    public let name: String
    /// The app named or inferred; nil when several apps handle the intent and none was named.
    public let app: String?
    /// How sure the parser is of this reading, from 0 to 1, rounded to three decimals.
    public let confidence: Double
    /// In utterance order; a list parameter appears once per value.
    public var parameters: [Parameter]
    /// Required parameters the user did not say, each with its resolution (`needsValue`);
    /// empty until the resolver has run.
    public var missing: [MissingParameter] = []

    /// The values of a parameter, in utterance order.
    public func values(_ name: String) -> [Parameter] { parameters.filter { $0.name == name } }

    /// A frame with its parameters (nothing missing yet).
    public init(domain: String, name: String, app: String?, confidence: Double, parameters: [Parameter]) {
        self.domain = domain
        self.name = name
        self.app = app
        self.confidence = confidence
        self.parameters = parameters
    }

    enum CodingKeys: String, CodingKey { case domain, name, app, confidence, parameters, missing }

    /// Decodes the JSON `encode(to:)` writes; `app` may be null and `missing` absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        domain = try c.decode(String.self, forKey: .domain)
        name = try c.decode(String.self, forKey: .name)
        app = try c.decodeIfPresent(String.self, forKey: .app)
        confidence = try c.decode(Double.self, forKey: .confidence)
        parameters = try c.decode([Parameter].self, forKey: .parameters)
        missing = try c.decodeIfPresent([MissingParameter].self, forKey: .missing) ?? []
    }

    /// Writes the frame as records.md's `intent`: `app` as null when not known, `missing` only when it
    /// is not empty.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(domain, forKey: .domain)
        try c.encode(name, forKey: .name)
        try c.encode(app, forKey: .app)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(parameters, forKey: .parameters)
        if !missing.isEmpty { try c.encode(missing, forKey: .missing) }
    }
}

/// A required parameter that was not said (records.md extension: `intent.missing`).
public struct MissingParameter: Sendable, Hashable, Codable {
    /// The parameter's name ("recipients").
    public let name: String
    /// Its resolution: `needsValue`, with the reason.
    public let resolution: Resolution

    /// A missing parameter with its resolution.
    public init(name: String, resolution: Resolution) {
        self.name = name
        self.resolution = resolution
    }
}

/// How a parameter value resolved against the app's vocabulary, as SiriKit's resolve stage
/// answers (intents.md "Resolution results"). Made by `ParlanceResolver`; the parser alone
/// leaves parameters unresolved.
public struct Resolution: Sendable, Hashable, Codable {
    /// The resolver's answer for a parameter (intents.md "Resolution results").
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// `success`: one item matched. `confirmationRequired`: one likely item, to confirm with a yes or no question.
        /// `disambiguation`: 2 to 10 items to choose between, best first. `needsMoreDetails`: too many matches to list.
        /// `needsValue`: the intent requires the parameter and the user gave none. `unsupported`: no match, or a value
        /// the app cannot take. `notRequired`: the intent or the app does not use the parameter; the value is ignored.
        case success, confirmationRequired, disambiguation, needsMoreDetails, needsValue, unsupported, notRequired
    }

    /// A vocabulary item offered: its id, the phrase to show, and how well it matched (0–1).
    public struct Item: Sendable, Hashable, Codable {
        /// The item's identifier (a `VocabularyItem.id`, or a shortcut's id).
        public let id: String
        /// The phrase to show the user.
        public let display: String
        /// How well it matched, from 0 to 1.
        public let score: Double

        /// An item with its identifier, its display phrase and its score.
        public init(id: String, display: String, score: Double) {
            self.id = id
            self.display = display
            self.score = score
        }
    }

    /// The resolver's answer.
    public let kind: Kind
    /// One item for success and confirmationRequired, 2–10 for disambiguation (best first),
    /// none otherwise.
    public let items: [Item]
    /// Why: for unsupported ("no contactName close to 'Rodrigo'"), needsMoreDetails and
    /// notRequired; nil when the kind says it all.
    public let reason: String?

    /// A resolution of `kind`, with its items (best first) and its reason when there is one.
    public init(kind: Kind, items: [Item] = [], reason: String? = nil) {
        self.kind = kind
        self.items = items
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey { case kind, items, reason }

    /// Writes `kind` and `items`, and `reason` when there is one.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(items, forKey: .items)
        try c.encodeIfPresent(reason, forKey: .reason)
    }
}

/// One parameter value: what was said, where, and its typed value.
public struct Parameter: Sendable, Hashable, Codable {
    /// The parameter's name in the intent ("recipients").
    public let name: String
    /// The typed value; for names, places and texts, the words as said.
    public let value: ParameterValue
    /// The words as said (also for typed values: "veinte euros").
    public let raw: String
    /// Unicode scalar offsets in the utterance, end exclusive; nil for values the template fixes.
    public let span: Span?
    /// How the value resolved against the app's vocabulary; nil when not resolved (the
    /// parameter has no vocabulary type, or the resolver did not run).
    public var resolution: Resolution? = nil

    /// A parameter value with the words said and their span; `resolution` stays nil until the resolver runs.
    public init(name: String, value: ParameterValue, raw: String, span: Span?, resolution: Resolution? = nil) {
        self.name = name
        self.value = value
        self.raw = raw
        self.span = span
        self.resolution = resolution
    }
}

/// A typed parameter value. Encoded as records.md says: a string for words and enum cases,
/// `{"amount", "currency"}` for amounts, ISO 8601 strings or `{"start", "end"}` for dates.
public enum ParameterValue: Sendable, Hashable, Codable {
    /// Words as said: a name, a place, a message's content, a note.
    case text(String)
    /// A number, said in digits or words ("veinte" → 20).
    case number(Decimal)
    /// An amount with its ISO 4217 currency code (`{"amount": 20, "currency": "EUR"}`).
    case currencyAmount(CurrencyAmount)
    /// An ISO 8601 date, or date and time, resolved against the reference time.
    case date(String)
    /// A range of dates, `{"start", "end"}` in ISO 8601.
    case dateRange(DateRange)
    /// A case of an enum parameter, by its identifier ("unread", "tomato").
    case enumCase(String)
    /// Yes or no.
    case boolean(Bool)
    /// When a reminder fires (`{"start": …, "recurrence": {…}}`).
    case temporalTrigger(TemporalTrigger)
    /// Where a reminder fires (`{"event": "arrive", "place": "home"}`).
    case spatialTrigger(SpatialTrigger)

    /// Writes the value as records.md types it: a string (words, dates, enum cases), a number, a
    /// boolean, or an object for amounts and date ranges.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .text(let s), .date(let s), .enumCase(let s): try c.encode(s)
        case .number(let n): try c.encode(n)
        case .currencyAmount(let a): try c.encode(a)
        case .dateRange(let r): try c.encode(r)
        case .boolean(let b): try c.encode(b)
        case .temporalTrigger(let t): try c.encode(t)
        case .spatialTrigger(let t): try c.encode(t)
        }
    }

    /// Reads what `encode(to:)` writes. A string always reads as `text`: JSON does not tell a date or
    /// an enum case from words.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) {
            self = .boolean(b)
        } else if let n = try? c.decode(Decimal.self) {
            self = .number(n)
        } else if let a = try? c.decode(CurrencyAmount.self) {
            self = .currencyAmount(a)
        } else if let r = try? c.decode(DateRange.self) {
            self = .dateRange(r)
        } else if let t = try? c.decode(SpatialTrigger.self) {
            self = .spatialTrigger(t)
        } else if let t = try? c.decode(TemporalTrigger.self) {
            self = .temporalTrigger(t)
        } else {
            self = .text(try c.decode(String.self))
        }
    }

    /// The value as JSON-comparable text (for evaluation and display).
    public var display: String {
        switch self {
        case .text(let s), .date(let s), .enumCase(let s): s
        case .number(let n): "\(n)"
        case .currencyAmount(let a): "\(a.amount) \(a.currency)"
        case .dateRange(let r): "\(r.start)/\(r.end)"
        case .boolean(let b): "\(b)"
        case .temporalTrigger(let t): t.display
        case .spatialTrigger(let t): "\(t.event.rawValue) \(t.place)"
        }
    }
}

/// When a reminder fires, as SiriKit's `INTemporalEventTrigger`: once at `start`, or repeatedly
/// (`recurrence`, with `start` its first occurrence when a time of day was said). Encoded
/// `{"start": "2026-11-22T09:00:00+01:00"}` or `{"recurrence": {"frequency": "weekly",
/// "weekdays": ["monday"]}}` (Corpora/ANNOTATION.md).
public struct TemporalTrigger: Sendable, Hashable, Codable {
    /// A repetition without its first occurrence.
    public struct Rule: Sendable, Hashable, Codable {
        /// daily, weekly, monthly or yearly.
        public let frequency: Recurrence.Frequency
        /// Named weekdays (lowercase English names), in the order said.
        public let weekdays: [String]?
        /// The part of the day said without a time ("every evening").
        public let dayPart: String?
    }

    /// The ISO 8601 date or date-time it fires first; nil for a repetition said without a time.
    public let start: String?
    /// How it repeats; nil when it fires once.
    public let recurrence: Rule?

    /// A trigger from a text-layer value: a date, a date-time, the start of a range, or a repetition.
    public init?(_ value: EntityValue) {
        switch value {
        case .date(let d), .dateTime(let d): (start, recurrence) = (d, nil)
        case .dateRange(let r): (start, recurrence) = (r.start, nil)
        case .recurrence(let r):
            start = r.start
            recurrence = Rule(frequency: r.frequency, weekdays: r.weekdays, dayPart: r.dayPart)
        default: return nil
        }
    }

    /// "2026-11-22T09:00:00+01:00", "weekly monday from 2026-11-23T09:00:00+01:00".
    public var display: String {
        guard let recurrence else { return start ?? "" }
        var out = recurrence.frequency.rawValue
        if let days = recurrence.weekdays { out += " " + days.joined(separator: ",") }
        if let part = recurrence.dayPart { out += " " + part }
        if let start { out += " from " + start }
        return out
    }
}

/// Where a reminder fires, as SiriKit's `INSpatialEventTrigger`: arriving at or leaving a place,
/// the place as said. Encoded `{"event": "arrive", "place": "home"}`.
public struct SpatialTrigger: Sendable, Hashable, Codable {
    /// Arriving or leaving (`INLocationSearchType`'s arrive and depart).
    public enum Event: String, Sendable, Hashable, Codable, CaseIterable {
        /// "when I get home", "en arrivant au bureau"; "when I leave work", "cuando salga de casa".
        case arrive, depart
    }

    /// Arriving or leaving.
    public let event: Event
    /// The place as said ("home", "oficina").
    public let place: String

    /// A trigger on arriving at or leaving `place`.
    public init(event: Event, place: String) {
        self.event = event
        self.place = place
    }
}

/// Which template or model decided, with scores.
public struct Explanation: Sendable, Hashable, Codable {
    /// The stage that decided: "apps", "shortcut", "elsewhere", "negation", "template", "trained", or "none".
    public let decidedBy: String
    /// The template's file and line ("en/messaging.sentences:12"), or the model's name.
    public let source: String?
    /// The deciding score: the template matcher's score of the reading, the trained tier's probability,
    /// or the shortcut match's score; nil when nothing was scored.
    public let score: Double?
    /// The app mention found, if any, with how it was said.
    public let appMention: String?
    /// Notes on the decision ("'MоnkeyChat' mixes scripts: not taken as MonkeyChat").
    public let notes: [String]

    /// An explanation of a decision.
    public init(decidedBy: String, source: String?, score: Double?, appMention: String?, notes: [String]) {
        self.decidedBy = decidedBy
        self.source = source
        self.score = score
        self.appMention = appMention
        self.notes = notes
    }
}
