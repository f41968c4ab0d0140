import Foundation
import ParlanceParser
import ParlanceText

/// One line of `parlance resolve` input: `{"id", "locale", "app", "type", "query"}`.
public struct ResolveRequest: Sendable, Decodable {
    public let id: String?
    public let locale: String?
    public let app: String?
    public let type: String?
    public let query: String?

    enum CodingKeys: String, CodingKey { case id, locale, app, type, query }

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
    public let id: String?
    public let resolution: Resolution?
    public let candidates: [ResolutionPolicy.Candidate]?
    public let error: OutputRecord.RecordError?

    public init(id: String?, resolution: Resolution?, candidates: [ResolutionPolicy.Candidate]?, error: OutputRecord.RecordError?) {
        self.id = id
        self.resolution = resolution
        self.candidates = candidates
        self.error = error
    }

    enum CodingKeys: String, CodingKey { case id, resolution, candidates, error }

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
    public let resolver: Resolver
    public let defaultLocale: String
    public let defaultApp: String?
    public let defaultType: String?
    public let explain: Bool

    public init(resolver: Resolver, defaultLocale: String, defaultApp: String?, defaultType: String?, explain: Bool = false) {
        self.resolver = resolver
        self.defaultLocale = defaultLocale
        self.defaultApp = defaultApp
        self.defaultType = defaultType
        self.explain = explain
    }

    public func failed(_ record: ResolveRecord) -> Bool { record.error != nil }

    func failure(_ id: String?, _ code: String, _ message: String) -> ResolveRecord {
        ResolveRecord(id: id, resolution: nil, candidates: nil, error: .init(code: code, message: message))
    }

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
