import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `parlance serve` as a process: SIGTERM stops it once the requests in flight are answered.
@Suite struct ShutdownTests {
    /// The `parlance` binary beside the test bundle (the products folder).
    static var binary: URL {
        var folder = Bundle.main.bundleURL
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        return folder.appendingPathComponent("parlance")
    }

    @Test func sigtermLetsTheRequestInFlightFinish() async throws {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["serve", "--port", "0"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The port it bound, from its "listening on" line.
        var said = ""
        var port: Int?
        while port == nil {
            let chunk = errors.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            said += String(decoding: chunk, as: UTF8.self)
            if let range = said.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                port = Int(said[range].split(separator: ":").last ?? "")
            }
        }
        let bound = try #require(port, "no 'listening on' line: \(said)")

        // A batch whose body is still coming when SIGTERM arrives.
        let (chunks, feed) = AsyncStream.makeStream(of: ByteBuffer.self)
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(bound)/v1/batch")
        request.method = .POST
        request.body = .stream(chunks, length: .unknown)
        feed.yield(ByteBuffer(string: #"{"id": "1", "text": "MonkeyChat Bobo send more bananas"}"# + "\n"))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        #expect(response.status == .ok)
        kill(process.processIdentifier, SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        #expect(process.isRunning, "the server stopped with a request in flight")
        feed.yield(ByteBuffer(string: #"{"id": "2", "text": "Envoyer un message à Bobo sur MonkeyChat", "locale": "fr-FR"}"# + "\n"))
        feed.finish()
        let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
        let ids = body.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(ids == ["1", "2"], "\(body)")
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }
}
