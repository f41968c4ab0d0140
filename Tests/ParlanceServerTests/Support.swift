import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Parlance
import ParlanceServer
import Testing

/// A server on a loopback port for the length of a test, and a client that checks every answer
/// against the OpenAPI document.
struct Running: Sendable {
    let base: String
    let document: OpenAPIDocument

    /// Starts a server for `context` with `configuration` (port 0: a free one), runs `body`
    /// against it, then stops it.
    static func with(
        context: ParserContext = Fixtures.context(), configuration: ServerConfiguration = ServerConfiguration(),
        _ body: (Running) async throws -> Void
    ) async throws {
        var configuration = configuration
        configuration.port = 0
        let server = try ParlanceServer(context: context, configuration: configuration)
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        var quiet = Logger(label: "parlance-serve-test")
        quiet.logLevel = .critical  // stopping the server by cancellation logs an error per test
        let app = server.application(logger: quiet) { port in portSink.yield(port) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            try await body(Running(base: "http://127.0.0.1:\(port)", document: try OpenAPIDocument.load()))
            group.cancelAll()
        }
    }

    /// What came back: the status, the headers, the body.
    struct Answer {
        var status: Int
        var contentType: String
        var headers: [String: String]
        var body: String
        /// The body as a JSON object.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        /// The body's lines as JSON objects (JSON Lines).
        var lines: [[String: Any]] {
            body.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    /// Sends a request; the answer must be one the document allows for that route
    /// (`documented` names the route's path template when it has parameters).
    func send(
        _ method: HTTPMethod, _ path: String, body: String? = nil, token: String? = nil, documented template: String? = nil,
        stream: HTTPClientRequest.Body? = nil
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let stream {
            request.body = stream
        } else if let body {
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 1 << 26)
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name.lowercased()] = header.value }
        let answer = Answer(
            status: Int(response.status.code), contentType: headers["content-type"] ?? "", headers: headers,
            body: String(buffer: bytes))
        let route = template ?? String(path.split(separator: "?").first ?? "")
        let problems = document.check(method: method.rawValue.lowercased(), path: route, answer: answer)
        #expect(problems.isEmpty, "\(method) \(path) → \(answer.status) \(answer.body.prefix(300)): \(problems)")
        return answer
    }
}

enum Fixtures {
    /// Jotter (lists and notes) with one list, "Rainy Day", and MonkeyChat with two contacts.
    static func context() -> ParserContext {
        try! ParserContext.decode(
            Data(
                """
                {"apps": [
                  {"name": "Jotter", "intents": ["addTasks", "createNote", "searchForNotebookItems", "createTaskList"],
                   "userVocabulary": {"notebookItemTitle": [{"id": "l1", "phrase": "Rainy Day"}]}},
                  {"name": "MonkeyChat", "intents": ["sendMessage", "searchForMessages"],
                   "userVocabulary": {"contactName": [{"id": "bobo", "phrase": "Bobo"}, {"id": "koko", "phrase": "Koko Lanes"}]}}]}
                """.utf8), file: "server.json")
    }
}
