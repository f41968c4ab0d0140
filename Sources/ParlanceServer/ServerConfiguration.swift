import Foundation
import Parlance

/// How `parlance serve` runs: where it listens, its limits, and who may call it.
public struct ServerConfiguration: Sendable {
    /// The host to bind ("127.0.0.1").
    public var host = "127.0.0.1"
    /// The port to bind; 0 picks a free one (tests).
    public var port = 8080
    /// The largest body of a parse, resolve, vocabulary or donation request, in bytes.
    public var maxBodyBytes = 1 << 20
    /// The largest body of a batch, in bytes.
    public var maxBatchBytes = 64 << 20
    /// Requests served at once; over it, 503 with Retry-After.
    public var maxConcurrent = 64
    /// The longest a parse, resolve, vocabulary or donation request may take, in seconds; over
    /// it, 503 "timeout" (a batch is bounded by its size and each line's work budget instead).
    public var requestTimeout = 10.0
    /// Who may call: nil lets anyone in (one tenant, "default"); else a bearer token is needed.
    public var tokens: TokenFile?
    /// The users' database; nil keeps every user's vocabulary and donations in memory.
    public var databasePath: String?
    /// Whether output records carry the parse's explanation.
    public var explain = false

    /// The defaults: 127.0.0.1:8080, 1 MiB bodies (64 MiB batches), 64 requests at once, 10 s,
    /// open, in memory.
    public init() {}
}

/// The tokens file (`--tokens FILE`): `{"tokens": [{"token": "…", "tenant": "acme",
/// "write": true}]}`. A tenant's users are its own: the same user name under two tenants is two
/// users. A token without `write` may parse and resolve but not change vocabulary or
/// donations.
public struct TokenFile: Sendable, Decodable {
    /// One bearer token.
    public struct Token: Sendable, Decodable {
        /// The secret a client sends as `Authorization: Bearer <token>`.
        public var token: String
        /// The tenant whose users the token reaches.
        public var tenant: String
        /// Whether the token may change vocabulary and donations.
        public var write: Bool

        enum CodingKeys: String, CodingKey { case token, tenant, write }

        /// Decodes a token; `write` defaults to false.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            token = try c.decode(String.self, forKey: .token)
            tenant = try c.decode(String.self, forKey: .tenant)
            write = try c.decodeIfPresent(Bool.self, forKey: .write) ?? false
        }
    }

    /// The tokens.
    public var tokens: [Token]

    /// Reads a tokens file; an error names the file and what is wrong.
    public static func load(path: String) throws -> TokenFile {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ContextError(file: path, message: "cannot read: \(FileErrorText.describe(error))", kind: "tokens file")
        }
        let file: TokenFile
        do { file = try JSONGuard.decode(TokenFile.self, from: data) } catch let error as DecodingError {
            throw ContextError(file: path, message: LanguageResources.describe(error), kind: "tokens file")
        }
        for (n, token) in file.tokens.enumerated() {
            guard token.token.count >= 16 else {
                throw ContextError(
                    file: path, message: "at tokens[\(n)]: a token of fewer than 16 characters is too easy to guess", kind: "tokens file")
            }
            guard !token.tenant.isEmpty else {
                throw ContextError(file: path, message: "at tokens[\(n)]: an empty tenant", kind: "tokens file")
            }
        }
        return file
    }

    /// The token a request sent, or nil when it is none of these.
    func find(_ secret: Substring) -> Token? {
        // Every token compared in full, whatever matches, so that timing says nothing of them.
        var found: Token?
        for token in tokens {
            let a = Array(token.token.utf8)
            let b = Array(secret.utf8)
            var differ = a.count ^ b.count
            for i in 0..<max(a.count, b.count) { differ |= Int((i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)) }
            if differ == 0 { found = token }
        }
        return found
    }
}
