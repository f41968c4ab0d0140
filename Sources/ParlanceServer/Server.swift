import Foundation
import Hummingbird
import Logging
import NIOCore
import Parlance
import ParlanceICU
import Prometheus

/// The HTTP/JSON service over the library (`parlance serve`): parse, resolve and batch
/// requests, each user's vocabulary and donations, health and Prometheus metrics. The routes
/// and their bodies are `Sources/ParlanceServer/openapi.json`; errors are RFC 9457 problem
/// details with a stable `code`.
public final class ParlanceServer: Sendable {
    /// How the server runs.
    public let configuration: ServerConfiguration
    let users: Users
    let metrics = Metrics()
    let slots = Locked(0)

    /// A server for a context; with `configuration.databasePath`, users' vocabulary and
    /// donations are kept in that SQLite file.
    public init(context: ParserContext, configuration: ServerConfiguration) throws {
        self.configuration = configuration
        let database = try configuration.databasePath.map { path throws(StoreError) in try UserDatabase(path: path) }
        users = try Users(context: context, database: database)
    }

    /// The application, ready to run (`runService()` runs it until SIGTERM or SIGINT, letting
    /// requests in flight finish). `onRunning` is told the port bound (the one asked for, or a
    /// free one for port 0).
    public func application(logger: Logger? = nil, onRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        let router = Router()
        router.add(middleware: Gate(server: self))
        router.get("/health") { _, _ in self.health() }
        router.get("/metrics") { _, _ in self.prometheus() }
        router.get("/openapi.json") { _, _ in Self.openAPIDocument() }
        router.post("/v1/parse") { request, context in try await self.parse(request, context) }
        router.post("/v1/resolve") { request, context in try await self.resolve(request, context) }
        router.post("/v1/batch") { request, context in try await self.batch(request, context) }
        router.put("/v1/users/:user/apps/:app/vocabulary/:type") { request, context in try await self.putVocabulary(request, context) }
        router.delete("/v1/users/:user/apps/:app/vocabulary/:type") { request, context in try await self.deleteVocabulary(request, context)
        }
        router.delete("/v1/users/:user/apps/:app/vocabulary") { request, context in try await self.deleteVocabulary(request, context) }
        router.post("/v1/users/:user/donations") { request, context in try await self.postDonation(request, context) }
        router.delete("/v1/users/:user/donations") { request, context in try await self.deleteDonations(request, context) }
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "parlance"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger ?? Logger(label: "parlance-serve"))
    }

    // MARK: - The gate: tokens, slots, metrics

    /// Who called: the tenant of the token (or "default" on an open server) and whether it may write.
    struct Caller: Sendable {
        var tenant: String
        var write: Bool
    }

    /// Every request passes here: its token is checked, it takes a slot (or gets 503 with
    /// Retry-After), problems become problem+json responses, and it is counted.
    struct Gate: RouterMiddleware {
        typealias Context = BasicRequestContext
        let server: ParlanceServer

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            let started = ContinuousClock.now
            let route = context.endpointPath ?? "unknown"
            let response: Response
            do {
                response = try await server.admitted(request) { try await next(request, context) }
            } catch let problem as Problem {
                response = problem.response(headers: problem.code == "overloaded" ? [.retryAfter: "1"] : [:])
            } catch let error as HTTPResponseError {
                let status = error.status
                response =
                    status == .contentTooLarge
                    ? Problem.tooLarge(server.configuration.maxBodyBytes).response()
                    : Problem(status, "http_\(status.code)", status.reasonPhrase, "\(error)").response()
            } catch {
                response = Problem(.internalServerError, "internal", "Internal error", "\(error)").response()
            }
            server.metrics.count(route: route, status: response.status.code, seconds: (ContinuousClock.now - started).seconds)
            return response
        }
    }

    /// Checks the token of a request to `/v1/…` and runs `body` in a slot, held until the
    /// response's body is written (a streamed batch keeps it to its last line).
    func admitted(_ request: Request, _ body: () async throws -> Response) async throws -> Response {
        if request.uri.path.hasPrefix("/v1/") { _ = try caller(request) }
        let taken = slots.withLock { taken -> Bool in
            guard taken < configuration.maxConcurrent else { return false }
            taken += 1
            return true
        }
        guard taken else { throw Problem.overloaded }
        metrics.inFlight.increment()
        let release: @Sendable () -> Void = { [slots, metrics] in
            slots.withLock { $0 -= 1 }
            metrics.inFlight.decrement()
        }
        var response: Response
        do { response = try await body() } catch {
            release()
            throw error
        }
        let written = response.body
        response.body = ResponseBody { writer in
            defer { release() }
            try await written.write(writer)
        }
        return response
    }

    /// The caller of a request: its bearer token's tenant, or the one tenant of an open server.
    func caller(_ request: Request) throws -> Caller {
        guard let tokens = configuration.tokens else { return Caller(tenant: "default", write: true) }
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { throw Problem.unauthorized }
        guard let token = tokens.find(header.dropFirst("Bearer ".count)) else { throw Problem.unauthorized }
        return Caller(tenant: token.tenant, write: token.write)
    }

    /// The caller, who must be allowed to change a user's data.
    func writer(_ request: Request) throws -> Caller {
        let who = try caller(request)
        guard who.write else { throw Problem.forbidden("this token may parse and resolve but not change vocabulary or donations") }
        return who
    }

    // MARK: - Bodies and answers

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        let body = (try? ParlanceJSON.line(value)) ?? "{}"
        return Response(
            status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body + "\n")))
    }

    /// Refuses a body whose declared length is over `limit` before any of it is read.
    func refuseDeclaredOver(_ limit: Int, _ request: Request) throws {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw Problem.tooLarge(limit) }
    }

    /// The whole body of a request other than a batch, at most `maxBodyBytes`.
    func body(_ request: Request) async throws -> [UInt8] {
        let limit = configuration.maxBodyBytes
        try refuseDeclaredOver(limit, request)
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Array(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw Problem.tooLarge(limit)
        }
    }

    func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
        do { return try JSONGuard.decode(T.self, from: Data(bytes)) } catch let error as DecodingError {
            throw Problem.badJSON(LanguageResources.describe(error))
        } catch { throw Problem.badJSON("\(error)") }
    }

    /// The user a request is for (`?user=`, or "default"), of the caller's tenant.
    func user(_ request: Request, _ context: BasicRequestContext, tenant: String) throws -> Users.User {
        let id = context.parameters.get("user") ?? request.uri.queryParameters.get("user") ?? "default"
        guard Users.valid(id) else {
            throw Problem.badRequest("bad_user", "a user id is 1 to 128 letters, digits, '-', '_', '.' or '@'")
        }
        do { return try users.user(id, tenant: tenant) } catch { throw Problem.store(error) }
    }

    /// Runs CPU-bound work off the server's event loops, answering 503 "timeout" when it takes
    /// longer than the configured limit (the work is left to finish on its own). Work that
    /// ends past the limit before the alarm has run (both wait for a thread of the same pool)
    /// is answered "timeout" too: the answer depends on the time the work took, not on which
    /// task a busy machine ran first.
    func timed<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let seconds = configuration.requestTimeout
        let outcome = Locked<Bool>(false)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            func finish(_ result: Result<T, any Error>) {
                let first = outcome.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(with: result) }
            }
            let alarm = Task.detached {
                try await Task.sleep(for: .seconds(seconds))
                finish(.failure(Problem.timeout(seconds)))
            }
            Task.detached {
                let clock = ContinuousClock()
                let start = clock.now
                let result = Result { try work() }
                alarm.cancel()
                finish(clock.now - start > .seconds(seconds) ? .failure(Problem.timeout(seconds)) : result)
            }
        }
    }

    // MARK: - Parse, resolve, batch

    func parse(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let who = try caller(request)
        let user = try user(request, context, tenant: who.tenant)
        let bytes = try await body(request)
        let processor = BatchLineProcessor(parser: user.chain, defaultLocale: "en-US", explain: configuration.explain)
        let record = try await timed { processor.process(bytes) }
        if let error = record.error { throw Problem.badRequest(error.code, error.message) }
        return Self.json(record)
    }

    func resolve(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let who = try caller(request)
        let user = try user(request, context, tenant: who.tenant)
        let bytes = try await body(request)
        let processor = ResolveLineProcessor(resolver: user.chain.resolver, defaultLocale: "en-US", defaultApp: nil, defaultType: nil)
        let record = try await timed { processor.process(bytes) }
        if let error = record.error {
            throw error.code == "resolve_failed" && error.message.hasPrefix("unknown app")
                ? Problem.notFound("unknown_app", error.message) : Problem.badRequest(error.code, error.message)
        }
        return Self.json(record)
    }

    /// JSON Lines in, JSON Lines out: one output record per input line, in order, written as
    /// each is parsed; a broken line is an error record and the batch goes on.
    func batch(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let who = try caller(request)
        let user = try user(request, context, tenant: who.tenant)
        let limit = configuration.maxBatchBytes
        try refuseDeclaredOver(limit, request)
        let processor = BatchLineProcessor(parser: user.chain, defaultLocale: "en-US", explain: configuration.explain)
        let body = request.body
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"],
            body: ResponseBody { writer in
                let encoder = ParlanceJSON.encoder()
                var lines = LineSplitter()
                var read = 0
                var number = 0
                func write(_ record: OutputRecord) async throws {
                    var out = try processor.encode(record, with: encoder)
                    out.append(UInt8(ascii: "\n"))
                    try await writer.write(ByteBuffer(bytes: out))
                }
                // A line of blanks alone is no record here (it is one in `parlance batch`).
                func emit(_ line: [UInt8]) async throws {
                    guard !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) else {
                        return
                    }
                    number += 1
                    try await write(processor.process(line, number: number))
                }
                for try await chunk in body {
                    read += chunk.readableBytes
                    if read > limit {
                        try await write(
                            OutputRecord(
                                id: nil, locale: nil, text: nil,
                                error: .init(
                                    code: "body_too_large", message: "the batch is over the server's limit of \(limit) bytes: stopped here")
                            ))
                        try await writer.finish(nil)
                        return
                    }
                    var complete: [[UInt8]] = []
                    lines.feed(chunk.readableBytesView) { complete.append($0) }
                    for line in complete { try await emit(line) }
                }
                if let last = lines.finish() { try await emit(last) }
                try await writer.finish(nil)
            })
    }

    // MARK: - Vocabulary and donations

    struct VocabularyAnswer: Encodable {
        var user: String
        var app: String
        var type: String
        var items: Int
    }

    /// The app and (when the route has one) the type of a vocabulary route, which the context must know.
    func vocabularyTarget(_ context: BasicRequestContext) throws -> (app: String, type: String?) {
        guard let app = context.parameters.get("app"), users.context.apps.contains(where: { $0.name == app }) else {
            let known = users.context.apps.map(\.name).joined(separator: ", ")
            throw Problem.notFound("unknown_app", "no app '\(context.parameters.get("app") ?? "")' in the context (it has \(known))")
        }
        let type = context.parameters.get("type")
        if let type, !users.context.vocabularyTypes().contains(type) {
            throw Problem.notFound(
                "unknown_type",
                "unknown vocabulary type '\(type)': expected one of \(users.context.vocabularyTypes().joined(separator: ", "))")
        }
        return (app, type)
    }

    /// PUT: replaces the user's whole ordered set of one type (most important first).
    func putVocabulary(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let who = try writer(request)
        let (app, type) = try vocabularyTarget(context)
        let items = try decode([VocabularyItem].self, try await body(request))
        var ids = Set<String>()
        for (n, item) in items.enumerated() {
            guard !item.id.isEmpty, !item.phrase.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw Problem.badRequest("bad_item", "item \(n): an id and a phrase are needed")
            }
            guard ids.insert(item.id).inserted else {
                throw Problem.badRequest("bad_item", "item \(n): the id '\(item.id)' is given twice")
            }
        }
        let user = try user(request, context, tenant: who.tenant)
        do { try user.store.setUserVocabulary(items, app: app, type: type!) } catch { throw Problem.store(error) }
        return Self.json(VocabularyAnswer(user: context.parameters.get("user") ?? "", app: app, type: type!, items: items.count))
    }

    /// DELETE: removes the user's set of one type, or every set of the app (sign-out).
    func deleteVocabulary(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let who = try writer(request)
        let (app, type) = try vocabularyTarget(context)
        let user = try user(request, context, tenant: who.tenant)
        do { try user.store.removeAllUserVocabulary(app: app, type: type) } catch { throw Problem.store(error) }
        return Response(status: .noContent)
    }

    /// POST: records a donation (one with the same id replaces it).
    func postDonation(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let who = try writer(request)
        let donation = try decode(Donation.self, try await body(request))
        guard users.context.apps.first(where: { $0.name == donation.app })?.handles(donation.intent) == true else {
            throw Problem.badRequest("unknown_intent", "no app '\(donation.app)' handling '\(donation.intent)' in the context")
        }
        let user = try user(request, context, tenant: who.tenant)
        do { try user.donations.record(donation) } catch { throw Problem.store(error) }
        return Response(status: .noContent)
    }

    /// DELETE: deletes donations as a journal's delete event says (`{"ids": […]}`,
    /// `{"group": "g"}`, `{"all": true}`).
    func deleteDonations(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let who = try writer(request)
        let bytes = try await body(request)
        let event = try decode(DonationEvent.self, Array(#"{"delete": "#.utf8) + bytes + Array("}".utf8))
        let user = try user(request, context, tenant: who.tenant)
        do { try user.donations.apply(event) } catch { throw Problem.store(error) }
        return Response(status: .noContent)
    }

    // MARK: - Health, metrics, the document

    struct Health: Encodable {
        var status = "ok"
        var languages: [String]
        var users: Int
        var storage: String
    }

    func health() -> Response {
        Self.json(
            Health(
                languages: IntentParser.supportedLanguages, users: users.count,
                storage: users.database.map { "sqlite \($0.path)" } ?? "memory"))
    }

    func prometheus() -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
            body: .init(byteBuffer: ByteBuffer(string: metrics.registry.emitToString())))
    }

    /// The OpenAPI document the routes follow (`Sources/ParlanceServer/openapi.json`).
    static func openAPIDocument() -> Response {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"), let data = try? Data(contentsOf: url) else {
            return Problem(.internalServerError, "internal", "Internal error", "the OpenAPI document is missing").response()
        }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The server's Prometheus metrics: requests by route and status, their durations, and the
/// requests in flight.
final class Metrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let inFlight: Gauge
    /// The counters and histograms made so far, by route and status (made once each).
    private let made = Locked<[String: (Counter, DurationHistogram)]>([:])

    init() {
        inFlight = registry.makeGauge(name: "parlance_requests_in_flight", help: "Requests being served")
    }

    func count(route: String, status: Int, seconds: Double) {
        let key = "\(route) \(status)"
        let (counter, histogram) = made.withLock { made in
            if let known = made[key] { return known }
            let pair = (
                registry.makeCounter(
                    name: "parlance_requests_total", labels: [("route", route), ("status", String(status))], help: "Requests answered"),
                registry.makeDurationHistogram(
                    name: "parlance_request_duration_seconds", labels: [("route", route)],
                    buckets: [
                        .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(2),
                        .seconds(10)
                    ],
                    help: "Time to answer")
            )
            made[key] = pair
            return pair
        }
        counter.increment()
        histogram.recordNanoseconds(Int64(seconds * 1e9))
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
