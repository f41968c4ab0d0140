import ArgumentParser
import Dispatch
import Foundation
import Parlance
import ParlanceServer

/// `parlance serve`: the library over HTTP/JSON, for modules that are not Swift.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve parsing, resolution and users' vocabulary over HTTP/JSON.",
        discussion: """
            POST /v1/parse, /v1/resolve (one records.md record in, one out) and /v1/batch (JSON Lines in and \
            out, streamed, in order); PUT and DELETE /v1/users/{user}/apps/{app}/vocabulary/{type}; POST and \
            DELETE /v1/users/{user}/donations; GET /health, /metrics (Prometheus), /openapi.json. Errors are \
            RFC 9457 problem+json with a stable code. SIGTERM or SIGINT stops it after the requests in flight.
            """
    )

    @Option(name: .long, help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to bind (0: a free one, printed on standard error).")
    var port = 8080

    @OptionGroup var contextOptions: ContextOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Users' database (SQLite): each user's vocabulary and donations kept across launches. Default: in memory.", valueName: "file"))
    var database: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Bearer tokens (JSON: {\"tokens\": [{\"token\", \"tenant\", \"write\"}]}); without it, anyone may call.", valueName: "file"))
    var tokens: String?

    @Option(name: .long, help: ArgumentHelp("Largest request body, in bytes (a batch's: 64 times as much).", valueName: "bytes"))
    var maxBody = 1 << 20

    @Option(name: .long, help: ArgumentHelp("Requests served at once; over it, 503 with Retry-After.", valueName: "n"))
    var maxConcurrent = 64

    @Option(name: .long, help: ArgumentHelp("Longest a request other than a batch may take, in seconds.", valueName: "seconds"))
    var timeout = 10.0

    @Flag(name: .long, help: "Output records carry the parse's explanation.")
    var explain = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard maxBody > 0, maxConcurrent > 0, timeout > 0 else {
            throw ValidationError("--max-body, --max-concurrent and --timeout must be positive")
        }
    }

    func run() throws {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.maxBodyBytes = maxBody
        configuration.maxBatchBytes = maxBody * 64
        configuration.maxConcurrent = maxConcurrent
        configuration.requestTimeout = timeout
        configuration.databasePath = database
        configuration.explain = explain
        if let tokens {
            do { configuration.tokens = try TokenFile.load(path: tokens) } catch { throw InputError("\(error)") }
        }
        let server: ParlanceServer
        do { server = try ParlanceServer(context: try contextOptions.load(), configuration: configuration) } catch let error as InputError {
            throw error
        } catch { throw InputError("\(error)") }
        let host = configuration.host
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.application { port in
                    FileHandle.standardError.write(Data("parlance serve: listening on http://\(host):\(port)\n".utf8))
                }.runService()
            } catch { outcome.set(error) }
            done.signal()
        }
        done.wait()
        if let error = outcome.get() { throw InputError("cannot serve: \(error)") }
    }

    /// The error the server stopped with, if any.
    final class Outcome: @unchecked Sendable {
        private var error: (any Error)?
        private let lock = NSLock()
        func set(_ error: any Error) { lock.withLock { self.error = error } }
        func get() -> (any Error)? { lock.withLock { error } }
    }
}
