import Foundation
import GRDB
import ParlanceICU
import ParlanceText

/// An interaction an app donated after the user did something (as `INInteraction.donate`):
/// the intent with its parameters, an identifier, an optional group, and when.
///
/// In a context file (records.md extension), `"donations": [...]`:
/// ```json
/// {"id": "d1", "group": "orders", "app": "Soup Chef", "intent": "orderSoup",
///  "parameters": {"soup": "chickenNoodle", "quantity": 1}, "date": "2026-11-20T12:30:00Z"}
/// ```
/// Parameter values are enum case ids, vocabulary item ids, numbers or text.
public struct Donation: Sendable, Hashable, Codable {
    /// The donation's identifier; recording a donation with the same id replaces the earlier one.
    public var id: String
    /// The group identifier, by which `DonationLog.delete(group:)` removes donations together; nil when
    /// none.
    public var group: String?
    /// The name of the app that donated it (an app of the context).
    public var app: String
    /// The intent the user carried out, SiriKit or custom ("orderSoup"); one the app handles.
    public var intent: String
    /// The parameter values, by parameter name.
    public var parameters: [String: ParameterValue]
    /// When the user did it (ISO 8601, with a UTC offset or Z).
    public var date: String
    /// `date` in seconds since 1970 (UTC).
    public let time: Double

    /// A donation made at `date`, which gives both `date` (as ISO 8601 text) and `time`.
    public init(
        id: String, group: String? = nil, app: String, intent: String, parameters: [String: ParameterValue] = [:], date: ReferenceTime
    ) {
        self.id = id
        self.group = group
        self.app = app
        self.intent = intent
        self.parameters = parameters
        self.date = date.description
        self.time = date.secondsSince1970
    }

    enum CodingKeys: String, CodingKey { case id, group, app, intent, parameters, date }

    /// Decodes a donation of a context file or a journal; throws when `date` is not an ISO 8601 date
    /// and time.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        group = try c.decodeIfPresent(String.self, forKey: .group)
        app = try c.decode(String.self, forKey: .app)
        intent = try c.decode(String.self, forKey: .intent)
        parameters = try c.decodeIfPresent([String: ParameterValue].self, forKey: .parameters) ?? [:]
        date = try c.decode(String.self, forKey: .date)
        do { time = try ReferenceTime(iso8601: date).secondsSince1970 } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .date, in: c, debugDescription: "'\(date)' is not an ISO 8601 date and time: \(error)")
        }
    }

    /// Writes the donation as a context file gives it (`time` is left out: `date` says it).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encodeIfPresent(group, forKey: .group)
        try c.encode(app, forKey: .app)
        try c.encode(intent, forKey: .intent)
        try c.encode(parameters, forKey: .parameters)
        try c.encode(date, forKey: .date)
    }
}

/// The donations of one user, with SiriKit's deletion semantics (`INInteraction.delete(with:)`
/// by identifiers, by group identifier, `deleteAll()`), and what they say about the user's
/// habits: a weight from 0 to 1 for an app, an intent, or a parameter value, higher for
/// what the user did often and recently.
///
/// Weights are computed from the donations present when asked, never cached: once
/// `delete` returns, a deleted donation has no effect at all on any later parse or
/// resolution. Thread-safe.
public final class DonationLog: Sendable {
    private let donations: Locked<[Donation]>
    /// Where the donations are kept across launches, and whose they are; nil in memory.
    private let persistence: (database: UserDatabase, user: String)?
    /// A donation's contribution halves every `halfLife` seconds (default 14 days).
    public let halfLife: Double

    /// A log holding `donations` in memory, in which a donation's weight halves every
    /// `halfLifeDays` days.
    public init(_ donations: [Donation] = [], halfLifeDays: Double = 14) {
        self.donations = Locked(donations)
        self.persistence = nil
        self.halfLife = halfLifeDays * 86_400
    }

    /// A user's log kept in a database: the user's donations as the database has them (on the
    /// user's first use, the context's, written there once). Every change is written to the
    /// database before it takes effect; a deleted donation is gone from the files when the
    /// call returns (see `UserDatabase`).
    public init(database: UserDatabase, user: String, context: ParserContext? = nil, halfLifeDays: Double = 14) throws(StoreError) {
        try database.ensureUser(user, context: context)
        self.donations = Locked(try database.donations(user: user))
        self.persistence = (database, user)
        self.halfLife = halfLifeDays * 86_400
    }

    /// Changes the list, after writing the change to the database when there is one (the
    /// donations `body` removed are deleted there, `recorded` written); a write the database
    /// refuses changes nothing.
    private func change(recording recorded: Donation? = nil, _ body: (inout [Donation]) -> Void) throws(StoreError) {
        try donations.withLock { (list: inout [Donation]) throws(StoreError) in
            var next = list
            body(&next)
            if let (database, user) = persistence {
                let gone = Set(list.map(\.id)).subtracting(next.map(\.id))
                try database.write { db in
                    for id in gone.sorted() { try db.execute(sql: "DELETE FROM donation WHERE user = ? AND id = ?", arguments: [user, id]) }
                    if let recorded { try UserDatabase.record(db, user: user, donation: recorded) }
                }
            }
            list = next
        }
    }

    /// Records a donation; one with the same id replaces the earlier one.
    public func record(_ donation: Donation) throws(StoreError) {
        try change(recording: donation) { list in
            list.removeAll { $0.id == donation.id }
            list.append(donation)
        }
    }

    /// Deletes the donations with these identifiers (`INInteraction.delete(with:)`); unknown ids are
    /// ignored.
    public func delete(ids: Set<String>) throws(StoreError) { try change { $0.removeAll { ids.contains($0.id) } } }

    /// Deletes every donation of the group (`INInteraction.delete(with:)` by group identifier).
    public func delete(group: String) throws(StoreError) { try change { $0.removeAll { $0.group == group } } }

    /// Deletes every donation (`INInteraction.deleteAll()`).
    public func deleteAll() throws(StoreError) { try change { $0.removeAll() } }

    /// The donations present, in the order recorded (one recorded again moves to the end).
    public var all: [Donation] { donations.withLock { $0 } }

    /// Whether the log holds no donation.
    public var isEmpty: Bool { donations.withLock { $0.isEmpty } }

    /// How much the user does what `matching` selects, at `time` (seconds since 1970): with
    /// s the sum over matching donations of 0.5^(age / half-life), s / (1 + s). One donation
    /// today gives 0.5, three today 0.75, one four weeks old 0.2; none gives 0.
    public func weight(at time: Double, where matching: (Donation) -> Bool) -> Double {
        let sum = donations.withLock { list in
            list.reduce(0.0) { sum, d in
                guard matching(d) else { return sum }
                let age = max(0, time - d.time)
                return sum + pow(0.5, age / halfLife)
            }
        }
        return sum / (1 + sum)
    }

    /// The weight of an app's intent.
    public func weight(app: String, intent: String, at time: Double) -> Double {
        weight(at: time) { $0.app == app && $0.intent == intent }
    }

    /// The weight of a parameter value (an enum case id, a vocabulary item id, or its text,
    /// folded) of an app's intent.
    public func weight(app: String, intent: String, parameter: String, value: String, at time: Double) -> Double {
        let key = TextNormalizer.key(value)
        return weight(at: time) { d in
            guard d.app == app, d.intent == intent, let v = d.parameters[parameter] else { return false }
            return v.display == value || TextNormalizer.key(v.display) == key
        }
    }
}

extension ReferenceTime {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Double {
        Double(date.days) * 86_400 + Double(hour * 3600 + minute * 60 + second - utcOffsetSeconds)
    }
}

/// One line of a donation journal (`--donations FILE`, JSON Lines, replayed in order):
/// `{"donate": {…a Donation…}}`, `{"delete": {"ids": ["d1", "d2"]}}`,
/// `{"delete": {"group": "orders"}}` or `{"delete": {"all": true}}`.
public enum DonationEvent: Sendable, Hashable, Decodable {
    /// `{"donate": {…}}`: record the donation (`DonationLog.record(_:)`).
    case donate(Donation)
    /// `{"delete": {"ids": […]}}`: delete the donations with these identifiers.
    case deleteIDs(Set<String>)
    /// `{"delete": {"group": "…"}}`: delete the donations of the group.
    case deleteGroup(String)
    /// `{"delete": {"all": true}}`: delete every donation.
    case deleteAll

    enum CodingKeys: String, CodingKey { case donate, delete }
    enum DeleteKeys: String, CodingKey { case ids, group, all }

    /// Decodes one journal line; throws when it is neither a donation nor a deletion by ids, by group
    /// or of all.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let donation = try c.decodeIfPresent(Donation.self, forKey: .donate) {
            self = .donate(donation)
            return
        }
        guard c.contains(.delete) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected {\"donate\": {…}} or {\"delete\": {\"ids\"|\"group\"|\"all\": …}}"))
        }
        let d = try c.nestedContainer(keyedBy: DeleteKeys.self, forKey: .delete)
        if let ids = try d.decodeIfPresent([String].self, forKey: .ids) {
            self = .deleteIDs(Set(ids))
        } else if let group = try d.decodeIfPresent(String.self, forKey: .group) {
            self = .deleteGroup(group)
        } else if try d.decodeIfPresent(Bool.self, forKey: .all) == true {
            self = .deleteAll
        } else {
            throw DecodingError.dataCorruptedError(
                forKey: .all, in: d, debugDescription: "a deletion names \"ids\", a \"group\", or \"all\": true")
        }
    }
}

extension DonationLog {
    /// Applies one journal event to the log: records the donation, or deletes what the event names.
    public func apply(_ event: DonationEvent) throws(StoreError) {
        switch event {
        case .donate(let donation): try record(donation)
        case .deleteIDs(let ids): try delete(ids: ids)
        case .deleteGroup(let group): try delete(group: group)
        case .deleteAll: try deleteAll()
        }
    }

    /// Replays a journal file; an error names the file and line, and nothing of the file is
    /// applied then (the journal is read whole first).
    public func replay(contentsOf url: URL, context: ParserContext) throws(ContextError) {
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw ContextError(file: url.path, message: "cannot read: \(FileErrorText.describe(error))", kind: "donation journal")
        }
        try replay(text, file: url.path, context: context)
    }

    /// Replays a donation journal's text (JSON Lines), `file` naming it in errors: every line is
    /// checked first, and nothing is applied when one is wrong.
    public func replay(_ text: String, file: String, context: ParserContext) throws(ContextError) {
        var events: [DonationEvent] = []
        for (n, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
        where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                let event = try JSONGuard.decode(DonationEvent.self, from: Data(line.utf8))
                if case .donate(let d) = event, !(context.apps.first { $0.name == d.app }?.handles(d.intent) ?? false) {
                    throw ContextError(
                        file: file, message: "line \(n + 1): donation \(d.id): no app '\(d.app)' handling '\(d.intent)' in the context",
                        kind: "donation journal")
                }
                events.append(event)
            } catch let error as ContextError {
                throw error
            } catch let error as DecodingError {
                throw ContextError(file: file, message: "line \(n + 1): \(LanguageResources.describe(error))", kind: "donation journal")
            } catch {
                throw ContextError(file: file, message: "line \(n + 1): \(error)", kind: "donation journal")
            }
        }
        for event in events {
            do { try apply(event) } catch {
                throw ContextError(file: file, message: "cannot keep the journal's events: \(error)", kind: "donation journal")
            }
        }
    }
}
