import Foundation
import ParlanceContext
import ParlanceParser
import ParlanceResolver
import ParlanceText

/// One line of `parlance resolve` input: `{"id", "locale", "app", "type", "query"}`.
public struct ResolveRequest: Sendable, Decodable {
    /// The record's id, given in the JSON as a string or a number (a number becomes its digits); nil when absent.
    public let id: String?
    /// A BCP 47 tag ("es-ES"); nil means the processor's default.
    public let locale: String?
    /// The app whose vocabulary to search; nil means the processor's default.
    public let app: String?
    /// The vocabulary type ("contactName"); nil means the processor's default.
    public let type: String?
    /// The said name to resolve; a record without one gets the error `missing_query`.
    public let query: String?

    enum CodingKeys: String, CodingKey { case id, locale, app, type, query }

    /// Decodes a request; every field is optional. Throws a `DecodingError` when `locale`, `app`, `type` or `query` is
    /// there but not a string.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = InputRecord.recordID(c, .id)
        locale = try c.decodeIfPresent(String.self, forKey: .locale)
        app = try c.decodeIfPresent(String.self, forKey: .app)
        type = try c.decodeIfPresent(String.self, forKey: .type)
        query = try c.decodeIfPresent(String.self, forKey: .query)
    }
}

/// One line of `parlance resolve` output: `{"id", "resolution"}`, plus `candidates` when
/// explaining and `error` when the line could not be resolved.
public struct ResolveRecord: Sendable, Encodable {
    /// The request's id; nil when it had none or the line could not be read.
    public let id: String?
    /// The resolution; nil when the line failed (see `error`).
    public let resolution: Resolution?
    /// The scored candidates behind the resolution, best first (at most 12), when explaining; nil otherwise and on error.
    public let candidates: [ResolutionPolicy.Candidate]?
    /// Why the line could not be resolved: `bad_json`, `too_deep`, `too_long`, `invalid_utf8`, `missing_query`,
    /// `missing_type`, `bad_locale` or `resolve_failed`; nil on success.
    public let error: OutputRecord.RecordError?

    /// Creates a record from its fields.
    public init(id: String?, resolution: Resolution?, candidates: [ResolutionPolicy.Candidate]?, error: OutputRecord.RecordError?) {
        self.id = id
        self.resolution = resolution
        self.candidates = candidates
        self.error = error
    }

    enum CodingKeys: String, CodingKey { case id, resolution, candidates, error }

    /// Encodes `id` and `resolution` always (as null when nil), `candidates` and `error` only when present.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(resolution, forKey: .resolution)
        try c.encodeIfPresent(candidates, forKey: .candidates)
        try c.encodeIfPresent(error, forKey: .error)
    }
}

/// Resolves one JSON line into exactly one record; never throws. Fields missing from a line
/// take the defaults given here.
public struct ResolveLineProcessor: LineProcessor {
    /// The resolver that answers the queries.
    public let resolver: Resolver
    /// The locale tag for lines without `locale`.
    public let defaultLocale: String
    /// The app for lines without `app`; nil searches every app of the context that has vocabulary of the type.
    public let defaultApp: String?
    /// The vocabulary type for lines without `type`; nil makes such lines errors (`missing_type`).
    public let defaultType: String?
    /// Whether records carry the scored candidates (`candidates`).
    public let explain: Bool

    /// Creates a processor with the defaults for the fields a line leaves out.
    public init(resolver: Resolver, defaultLocale: String, defaultApp: String?, defaultType: String?, explain: Bool = false) {
        self.resolver = resolver
        self.defaultLocale = defaultLocale
        self.defaultApp = defaultApp
        self.defaultType = defaultType
        self.explain = explain
    }

    /// Whether the record reports an error.
    public func failed(_ record: ResolveRecord) -> Bool { record.error != nil }

    func failure(_ id: String?, _ code: String, _ message: String) -> ResolveRecord {
        ResolveRecord(id: id, resolution: nil, candidates: nil, error: .init(code: code, message: message))
    }

    /// Resolves one JSON line into one record. A line that cannot be read as a request, lacks `query` or a type, has a
    /// bad locale, or names an unknown app or vocabulary type gives a record with `error` set and no resolution.
    public func process(_ line: [UInt8]) -> ResolveRecord {
        let request: ResolveRequest
        switch BatchLineProcessor.decode(line, as: ResolveRequest.self) {
        case .failure(let error): return ResolveRecord(id: nil, resolution: nil, candidates: nil, error: error)
        case .success(let decoded): request = decoded
        }
        guard let query = request.query else { return failure(request.id, "missing_query", "the record has no \"query\"") }
        guard let type = request.type ?? defaultType else {
            return failure(request.id, "missing_type", "the record has no \"type\" and no --type was given")
        }
        let locale: ParlanceLocale
        do { locale = try ParlanceLocale(request.locale ?? defaultLocale) } catch {
            return failure(request.id, "bad_locale", error.description)
        }
        do {
            let answer = try resolver.resolve(query, app: request.app ?? defaultApp, type: type, locale: locale)
            return ResolveRecord(
                id: request.id, resolution: answer.resolution, candidates: explain ? Array(answer.candidates.prefix(12)) : nil, error: nil)
        } catch {
            return failure(request.id, "resolve_failed", error.description)
        }
    }
}
