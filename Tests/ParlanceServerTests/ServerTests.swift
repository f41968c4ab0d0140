import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Parlance
import ParlanceServer
import Testing

/// `parlance serve` as a client sees it: a server on a loopback port, a real HTTP client, every
/// answer checked against the OpenAPI document.
@Suite(.serialized) struct ServerTests {
    static let listRequest =
        #"{"id": "r1", "locale": "en-US", "text": "add Tom Waits to rainy day", "reference_time": "2026-11-21T10:00:00+01:00"}"#

    @Test func parseResolveAndHealthFollowTheDocument() async throws {
        try await Running.with { server in
            let health = try await server.send(.GET, "/health")
            #expect(health.status == 200 && health.json["status"] as? String == "ok")

            let parsed = try await server.send(.POST, "/v1/parse", body: #"{"id": "p1", "text": "MonkeyChat Bobo send more bananas"}"#)
            #expect(parsed.status == 200)
            let intent = parsed.json["intent"] as? [String: Any]
            #expect(intent?["name"] as? String == "sendMessage" && parsed.json["id"] as? String == "p1")

            let resolved = try await server.send(
                .POST, "/v1/resolve", body: #"{"query": "Koko Lane", "app": "MonkeyChat", "type": "contactName"}"#)
            let resolution = resolved.json["resolution"] as? [String: Any]
            #expect(resolved.status == 200 && (resolution?["items"] as? [[String: Any]])?.first?["id"] as? String == "koko")

            let document = try await server.send(.GET, "/openapi.json")
            #expect(document.status == 200 && document.json["openapi"] as? String == "3.1.0")
        }
    }

    @Test func badRequestsAreProblemsWithStableCodes() async throws {
        try await Running.with { server in
            let vocabulary = "/v1/users/{user}/apps/{app}/vocabulary/{type}"
            let chat = "/v1/users/ana/apps/MonkeyChat/vocabulary"
            let donation = #"{"id": "d1", "app": "Jotter", "intent": "sendMessage", "date": "2026-11-21T10:00:00Z"}"#
            let twice = #"[{"id": "a", "phrase": "A"}, {"id": "a", "phrase": "B"}]"#
            let cases: [(HTTPMethod, String, String?, String?, Int, String)] = [
                (.POST, "/v1/parse", #"{"text": "#, nil, 400, "bad_json"),
                (.POST, "/v1/parse", #"{"id": "x"}"#, nil, 400, "missing_text"),
                (.POST, "/v1/parse", #"{"text": "hola", "locale": "xx-YY"}"#, nil, 400, "bad_locale"),
                (.POST, "/v1/resolve", #"{"query": "Bobo", "app": "WhatsApp", "type": "contactName"}"#, nil, 404, "unknown_app"),
                (.PUT, "/v1/users/ana/apps/Nope/vocabulary/contactName", "[]", vocabulary, 404, "unknown_app"),
                (.PUT, "\(chat)/contactNames", "[]", vocabulary, 404, "unknown_type"),
                (.PUT, "\(chat)/contactName", #"{"id": "a"}"#, vocabulary, 400, "bad_json"),
                (.PUT, "\(chat)/contactName", twice, vocabulary, 400, "bad_item"),
                (.PUT, "/v1/users/a%2Fb/apps/MonkeyChat/vocabulary/contactName", "[]", vocabulary, 400, "bad_user"),
                (.POST, "/v1/users/ana/donations", donation, "/v1/users/{user}/donations", 400, "unknown_intent"),
                (.DELETE, "/v1/users/ana/donations", #"{"every": true}"#, "/v1/users/{user}/donations", 400, "bad_json")
            ]
            for (method, path, body, template, status, code) in cases {
                let answer = try await server.send(method, path, body: body, documented: template)
                #expect(answer.status == status && answer.json["code"] as? String == code, "\(method) \(path): \(answer.body)")
                #expect(answer.contentType == "application/problem+json")
                #expect((answer.json["type"] as? String) == "urn:parlance:problem:\(code)")
            }
        }
    }

    @Test func aBatchStreamsOneRecordPerLineInOrder() async throws {
        try await Running.with { server in
            var lines: [String] = []
            for n in 0..<300 {
                switch n {
                case 41: lines.append("{not json")
                case 150: lines.append(#"{"id": "no text"}"#)
                case 299: lines.append(String(repeating: "x", count: 70_000))
                default: lines.append(#"{"id": "\#(n)", "text": "MonkeyChat Bobo send more bananas \#(n)"}"#)
                }
            }
            let answer = try await server.send(.POST, "/v1/batch", body: lines.joined(separator: "\n") + "\n")
            #expect(answer.status == 200 && answer.contentType == "application/x-ndjson")
            let records = answer.lines
            #expect(records.count == 300)
            let errors = records.indices.filter { !(records[$0]["error"] is NSNull) }
            #expect(errors == [41, 150, 299])
            let ids = records.compactMap { $0["id"] as? String }
            // The broken lines keep their place; the one without text keeps its id.
            let expected: [String] = (0..<299).filter { $0 != 41 }.map { n in n == 150 ? "no text" : String(n) }
            #expect(ids == expected)
        }
    }

    @Test func vocabularyUpdatesReachParsingAndResolutionForThatUserOnly() async throws {
        try await Running.with { server in
            let template = "/v1/users/{user}/apps/{app}/vocabulary/{type}"
            func list(_ user: String) async throws -> String? {
                let answer = try await server.send(.POST, "/v1/parse?user=\(user)", body: Self.listRequest)
                return (answer.json["intent"] as? [String: Any])?["name"] as? String
            }
            #expect(try await list("ana") == "addTasks")
            let removed = try await server.send(.DELETE, "/v1/users/ana/apps/Jotter/vocabulary/notebookItemTitle", documented: template)
            #expect(removed.status == 204)
            #expect(try await list("ana") == nil)
            #expect(try await list("ben") == "addTasks")

            let put = try await server.send(
                .PUT, "/v1/users/ana/apps/MonkeyChat/vocabulary/contactName", body: #"[{"id": "z1", "phrase": "Zora Quill"}]"#,
                documented: template)
            #expect(put.status == 200 && put.json["items"] as? Int == 1)
            let resolved = try await server.send(
                .POST, "/v1/resolve?user=ana", body: #"{"query": "Zora Quill", "app": "MonkeyChat", "type": "contactName"}"#)
            #expect(((resolved.json["resolution"] as? [String: Any])?["items"] as? [[String: Any]])?.first?["id"] as? String == "z1")
            let other = try await server.send(
                .POST, "/v1/resolve?user=ben", body: #"{"query": "Zora Quill", "app": "MonkeyChat", "type": "contactName"}"#)
            #expect((other.json["resolution"] as? [String: Any])?["kind"] as? String != "success")

            let signOut = try await server.send(
                .DELETE, "/v1/users/ana/apps/MonkeyChat/vocabulary", documented: "/v1/users/{user}/apps/{app}/vocabulary")
            #expect(signOut.status == 204)
            let gone = try await server.send(
                .POST, "/v1/resolve?user=ana", body: #"{"query": "Zora Quill", "app": "MonkeyChat", "type": "contactName"}"#)
            #expect((gone.json["resolution"] as? [String: Any])?["kind"] as? String == "unsupported")

            let donated = try await server.send(
                .POST, "/v1/users/ana/donations",
                body: #"{"id": "d1", "app": "MonkeyChat", "intent": "sendMessage", "date": "2026-11-21T10:00:00Z"}"#,
                documented: "/v1/users/{user}/donations")
            #expect(donated.status == 204)
            let deleted = try await server.send(
                .DELETE, "/v1/users/ana/donations", body: #"{"all": true}"#, documented: "/v1/users/{user}/donations")
            #expect(deleted.status == 204)
        }
    }

    @Test func tokensKeepTenantsApartAndReadersOut() async throws {
        let tokens = try JSONDecoder().decode(
            TokenFile.self,
            from: Data(
                """
                {"tokens": [{"token": "acme-writer-0123456789", "tenant": "acme", "write": true},
                            {"token": "acme-reader-0123456789", "tenant": "acme"},
                            {"token": "globex-writer-012345678", "tenant": "globex", "write": true}]}
                """.utf8))
        var configuration = ServerConfiguration()
        configuration.tokens = tokens
        try await Running.with(configuration: configuration) { server in
            let template = "/v1/users/{user}/apps/{app}/vocabulary/{type}"
            let none = try await server.send(.POST, "/v1/parse", body: Self.listRequest)
            #expect(none.status == 401 && none.json["code"] as? String == "unauthorized")
            let wrong = try await server.send(.POST, "/v1/parse", body: Self.listRequest, token: "acme-writer-0123456780")
            #expect(wrong.status == 401)
            let reader = try await server.send(
                .DELETE, "/v1/users/ana/apps/Jotter/vocabulary/notebookItemTitle", token: "acme-reader-0123456789", documented: template)
            #expect(reader.status == 403 && reader.json["code"] as? String == "forbidden")
            let writer = try await server.send(
                .DELETE, "/v1/users/ana/apps/Jotter/vocabulary/notebookItemTitle", token: "acme-writer-0123456789", documented: template)
            #expect(writer.status == 204)
            // acme's ana lost the list; globex's ana is another user.
            let acme = try await server.send(.POST, "/v1/parse?user=ana", body: Self.listRequest, token: "acme-reader-0123456789")
            #expect(acme.json["intent"] is NSNull)
            let globex = try await server.send(.POST, "/v1/parse?user=ana", body: Self.listRequest, token: "globex-writer-012345678")
            #expect((globex.json["intent"] as? [String: Any])?["name"] as? String == "addTasks")
            // Health and metrics need no token.
            #expect(try await server.send(.GET, "/health").status == 200)
        }
    }

    @Test func limitsAnswerWithProblems() async throws {
        var configuration = ServerConfiguration()
        configuration.maxBodyBytes = 1_000
        configuration.maxConcurrent = 1
        try await Running.with(configuration: configuration) { server in
            let big = #"{"text": ""# + String(repeating: "a", count: 2_000) + #""}"#
            let tooLarge = try await server.send(.POST, "/v1/parse", body: big)
            #expect(tooLarge.status == 413 && tooLarge.json["code"] as? String == "body_too_large")

            // A batch whose body has not ended holds the only slot: the next request is turned away.
            let (chunks, feed) = AsyncStream.makeStream(of: ByteBuffer.self)
            feed.yield(ByteBuffer(string: #"{"id": "1", "text": "call Bobo"}"# + "\n"))
            async let held = server.send(.POST, "/v1/batch", stream: .stream(chunks, length: .unknown))
            var busy = try await server.send(.GET, "/health")
            for _ in 0..<50 where busy.status == 200 {
                try await Task.sleep(for: .milliseconds(20))
                busy = try await server.send(.GET, "/health")
            }
            #expect(busy.status == 503 && busy.json["code"] as? String == "overloaded" && busy.headers["retry-after"] == "1")
            feed.finish()
            let batch = try await held
            #expect(batch.status == 200 && batch.lines.count == 1)
        }
        // Over the time allowed: no parse takes less than a microsecond, and one that ends past
        // the limit is a timeout even when the alarm has not run yet (a busy machine may run the
        // parse first).
        var hurried = ServerConfiguration()
        hurried.requestTimeout = 0.000_001
        try await Running.with(configuration: hurried) { server in
            let slow = try await server.send(.POST, "/v1/parse", body: #"{"text": "Schick Bobo eine Nachricht", "locale": "de-DE"}"#)
            #expect(slow.status == 503 && slow.json["code"] as? String == "timeout")
        }
    }

    @Test func metricsCountRequests() async throws {
        try await Running.with { server in
            _ = try await server.send(.POST, "/v1/parse", body: #"{"text": "call Bobo"}"#)
            let metrics = try await server.send(.GET, "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.body.contains(#"parlance_requests_total{route="/v1/parse",status="200"} 1"#), "\(metrics.body.prefix(400))")
            #expect(metrics.body.contains("parlance_request_duration_seconds"))
        }
    }

    @Test func aUsersDataOutlastsTheServerAndRemovalsLeaveTheDisk() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("users.sqlite").path
        let template = "/v1/users/{user}/apps/{app}/vocabulary/{type}"
        var configuration = ServerConfiguration()
        configuration.databasePath = path
        try await Running.with(configuration: configuration) { server in
            let put = try await server.send(
                .PUT, "/v1/users/ana/apps/MonkeyChat/vocabulary/contactName",
                body: #"[{"id": "q1", "phrase": "Quillon Varda"}, {"id": "q2", "phrase": "Marro Pendle"}]"#, documented: template)
            #expect(put.status == 200)
        }
        // A new server over the same file.
        try await Running.with(configuration: configuration) { server in
            let resolved = try await server.send(
                .POST, "/v1/resolve?user=ana", body: #"{"query": "Quillon Varda", "app": "MonkeyChat", "type": "contactName"}"#)
            #expect(((resolved.json["resolution"] as? [String: Any])?["items"] as? [[String: Any]])?.first?["id"] as? String == "q1")
            let replaced = try await server.send(
                .PUT, "/v1/users/ana/apps/MonkeyChat/vocabulary/contactName", body: #"[{"id": "q2", "phrase": "Marro Pendle"}]"#,
                documented: template)
            #expect(replaced.status == 200)
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path + suffix))
                #expect(bytes.range(of: Data("Quillon Varda".utf8)) == nil, "users.sqlite\(suffix) still holds the removed name")
            }
        }
    }
}
