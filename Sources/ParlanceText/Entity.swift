import Foundation

/// A typed value found in an utterance, with where it was said.
public struct Entity: Sendable, Hashable, Codable {
    /// The type of an entity's value, written as the entity's `type` field ("currencyAmount").
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// One case per `EntityValue` case, with the same name; see there for what each value holds.
        case number, currencyAmount, date, dateRange, dateTime, duration, distance, energy, recurrence
    }

    /// The kind of value, always `value.kind`; encoded as `type`.
    public let type: Kind
    /// The value, encoded bare: `20`, `{"amount": 20, "currency": "EUR"}`, `"2026-11-20"`.
    public let value: EntityValue
    /// Unicode scalar offsets in the utterance, end exclusive.
    public let span: Span
    /// The words as said.
    public let text: String

    /// Creates an entity; `type` is taken from `value`.
    public init(value: EntityValue, span: Span, text: String) {
        self.type = value.kind
        self.value = value
        self.span = span
        self.text = text
    }

    enum CodingKeys: String, CodingKey { case type, value, span, text }

    /// Decodes `{"type", "value", "span", "text"}`, reading `value` as `type` says. Throws a `DecodingError` when a
    /// field is missing or `value` does not fit `type`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(Kind.self, forKey: .type)
        let value: EntityValue =
            switch type {
            case .number: .number(try container.decode(Decimal.self, forKey: .value))
            case .currencyAmount: .currencyAmount(try container.decode(CurrencyAmount.self, forKey: .value))
            case .date: .date(try container.decode(String.self, forKey: .value))
            case .dateRange: .dateRange(try container.decode(DateRange.self, forKey: .value))
            case .dateTime: .dateTime(try container.decode(String.self, forKey: .value))
            case .duration: .duration(try container.decode(Measure.self, forKey: .value))
            case .distance: .distance(try container.decode(Measure.self, forKey: .value))
            case .energy: .energy(try container.decode(Measure.self, forKey: .value))
            case .recurrence: .recurrence(try container.decode(Recurrence.self, forKey: .value))
            }
        self.init(
            value: value, span: try container.decode(Span.self, forKey: .span), text: try container.decode(String.self, forKey: .text))
    }

    /// Encodes `{"type", "value", "span", "text"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(value, forKey: .value)
        try container.encode(span, forKey: .span)
        try container.encode(text, forKey: .text)
    }
}

/// The value of an `Entity`. Encodes as the bare value (`20`, `{"amount": 20, "currency": "EUR"}`,
/// `"2026-11-20"`).
public enum EntityValue: Sendable, Hashable, Encodable {
    /// A plain number: "veinte" → 20, "1,5" → 1.5.
    case number(Decimal)
    /// An amount of money: "20 €" → 20 EUR.
    case currencyAmount(CurrencyAmount)
    /// An ISO 8601 calendar date: "2026-11-20".
    case date(String)
    /// A run of days or a part of a day: "next week", "this morning".
    case dateRange(DateRange)
    /// An ISO 8601 date-time with the reference time's offset: "2026-11-22T08:00:00+01:00".
    case dateTime(String)
    /// A duration: "half an hour" → 30 minute; `base` in seconds.
    case duration(Measure)
    /// A distance: "5 km" → 5 kilometer; `base` in meters.
    case distance(Measure)
    /// Energy, for workout goals ("500 calories" → 500 kilocalorie).
    case energy(Measure)
    /// Something that repeats: "every Monday at 9", "todos los días", "chaque soir".
    case recurrence(Recurrence)

    /// Encodes the bare value: a number, an object for amounts, ranges and measures, a string for dates.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let n): try container.encode(n)
        case .currencyAmount(let c): try container.encode(c)
        case .date(let d), .dateTime(let d): try container.encode(d)
        case .dateRange(let r): try container.encode(r)
        case .duration(let m), .distance(let m), .energy(let m): try container.encode(m)
        case .recurrence(let r): try container.encode(r)
        }
    }

    /// The `Entity.Kind` of the value: its case.
    public var kind: Entity.Kind {
        switch self {
        case .number: .number
        case .currencyAmount: .currencyAmount
        case .date: .date
        case .dateRange: .dateRange
        case .dateTime: .dateTime
        case .duration: .duration
        case .distance: .distance
        case .energy: .energy
        case .recurrence: .recurrence
        }
    }
}

/// `{"amount": 20, "currency": "EUR"}`: an amount and an ISO 4217 code.
public struct CurrencyAmount: Sendable, Hashable, Codable {
    /// The amount in the currency's main unit: 20.5 for "20 euros 50".
    public let amount: Decimal
    /// The ISO 4217 code: "EUR".
    public let currency: String

    /// Creates an amount of a currency.
    public init(amount: Decimal, currency: String) {
        self.amount = amount
        self.currency = currency
    }
}

/// An inclusive range: whole days as dates ("2026-11-14"), parts of a day as date-times
/// with the reference time's offset ("2026-11-21T06:00:00+01:00").
public struct DateRange: Sendable, Hashable, Codable {
    /// The first day ("2026-11-14"), or the date-time the part of the day starts.
    public let start: String
    /// The last day, included, or the date-time the part of the day ends.
    public let end: String

    /// Creates a range from its ISO 8601 ends.
    public init(start: String, end: String) {
        self.start = start
        self.end = end
    }
}

/// A duration or a distance: the amount in the unit said, and in the base unit.
public struct Measure: Sendable, Hashable, Codable {
    /// The unit as SiriKit names workout goal units: second, minute, hour, meter, kilometer, mile.
    public enum Unit: String, Sendable, Hashable, Codable, CaseIterable {
        /// Seconds, minutes and hours measure durations; meters, kilometers and miles distances; kilocalories energy.
        case second, minute, hour, meter, kilometer, mile, kilocalorie

        /// Whether the unit measures time: second, minute or hour.
        public var isDuration: Bool { self == .second || self == .minute || self == .hour }
        /// Whether the unit measures energy: kilocalorie.
        public var isEnergy: Bool { self == .kilocalorie }

        /// Seconds for durations, meters for distances.
        public var baseFactor: Decimal {
            switch self {
            case .second: 1
            case .minute: 60
            case .hour: 3600
            case .meter: 1
            case .kilometer: 1000
            case .mile: Decimal(string: "1609.344")!
            case .kilocalorie: 1
            }
        }
    }

    /// The amount in `unit`, as said: 1.5 for "1.5 hours".
    public let amount: Decimal
    /// The unit said.
    public let unit: Unit
    /// Seconds (durations), meters (distances) or kilocalories (energy).
    public let base: Decimal
    /// ISO 8601 duration ("PT1H30M") for durations, nil for distances and energy.
    public let iso8601: String?

    /// Creates a measure; `base` and `iso8601` follow from the amount and the unit.
    public init(amount: Decimal, unit: Unit) {
        self.amount = amount
        self.unit = unit
        self.base = amount * unit.baseFactor
        self.iso8601 = unit.isDuration ? Measure.isoDuration(seconds: amount * unit.baseFactor) : nil
    }

    /// "PT1H30M", "PT45S", "-PT2H"; any amount a number can spell (a fuzzed "-666666…
    /// minutes" once trapped converting to Int), computed in Decimal, so nothing overflows.
    static func isoDuration(seconds: Decimal) -> String {
        func whole(_ value: Decimal) -> Decimal {
            var value = value
            var out = Decimal()
            NSDecimalRound(&out, &value, 0, .down)
            return out
        }
        let negative = seconds < 0
        var total = negative ? -seconds : seconds
        let hours = whole(total / 3600)
        total -= hours * 3600
        let minutes = whole(total / 60)
        total -= minutes * 60
        var out = negative ? "-PT" : "PT"
        if hours > 0 { out += "\(hours)H" }
        if minutes > 0 { out += "\(minutes)M" }
        if total > 0 || (hours == 0 && minutes == 0) { out += "\(total)S" }
        return out
    }
}

/// A repetition, as SiriKit's `INRecurrenceRule` and the temporal trigger of a reminder say it:
/// `{"frequency": "weekly", "weekdays": ["monday"]}`, with `start` the first occurrence at or after
/// the reference time when a time of day was said ("every Monday at 9" →
/// "2026-11-23T09:00:00+01:00").
public struct Recurrence: Sendable, Hashable, Codable {
    /// How often: daily, weekly, monthly or yearly.
    public enum Frequency: String, Sendable, Hashable, Codable, CaseIterable {
        /// Every day; every week; every month; every year.
        case daily, weekly, monthly, yearly
    }

    /// How often it repeats.
    public let frequency: Frequency
    /// The named days of a weekly repetition, lowercase English names in the order said; nil when none.
    public let weekdays: [String]?
    /// The part of the day ("morning", "afternoon", "evening") when one was said without a time.
    public let dayPart: String?
    /// The first occurrence (ISO 8601 date-time) when a time of day was said.
    public let start: String?

    /// A repetition with its frequency and what was said of it.
    public init(frequency: Frequency, weekdays: [String]? = nil, dayPart: String? = nil, start: String? = nil) {
        self.frequency = frequency
        self.weekdays = weekdays
        self.dayPart = dayPart
        self.start = start
    }

    /// English weekday names by CLDR number (1 = Sunday).
    public static let weekdayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
}
