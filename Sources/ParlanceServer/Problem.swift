import Foundation
import Hummingbird
import Parlance

/// An error answer as RFC 9457 problem details (`application/problem+json`), with a stable
/// `code` a client can branch on (the `type` is `urn:parlance:problem:<code>`).
public struct Problem: Error, Sendable, Encodable {
    /// The HTTP status.
    public let status: Int
    /// The stable code ("bad_json", "unknown_app", "body_too_large", "overloaded"…).
    public let code: String
    /// A short, fixed summary of the code.
    public let title: String
    /// What was wrong with this request.
    public let detail: String

    /// A problem of `code` with `status`.
    public init(_ status: HTTPResponse.Status, _ code: String, _ title: String, _ detail: String) {
        self.status = status.code
        self.code = code
        self.title = title
        self.detail = detail
    }

    enum CodingKeys: String, CodingKey { case type, title, status, detail, code }

    /// Writes the RFC 9457 members and `code`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("urn:parlance:problem:\(code)", forKey: .type)
        try c.encode(title, forKey: .title)
        try c.encode(status, forKey: .status)
        try c.encode(detail, forKey: .detail)
        try c.encode(code, forKey: .code)
    }

    /// The problem as a response.
    func response(headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "application/problem+json"
        let body = (try? ParlanceJSON.line(self)) ?? #"{"code":"internal"}"#
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: body + "\n")))
    }

    static func badJSON(_ detail: String) -> Problem { Problem(.badRequest, "bad_json", "The body is not the JSON expected", detail) }
    static func badRequest(_ code: String, _ detail: String) -> Problem {
        Problem(.badRequest, code, "The request cannot be carried out as it is", detail)
    }
    static func notFound(_ code: String, _ detail: String) -> Problem { Problem(.notFound, code, "Not found", detail) }
    static func tooLarge(_ limit: Int) -> Problem {
        Problem(.contentTooLarge, "body_too_large", "The body is too large", "the body is over the server's limit of \(limit) bytes")
    }
    static let unauthorized = Problem(
        .unauthorized, "unauthorized", "A bearer token is needed",
        "send 'Authorization: Bearer <token>' with a token of the server's tokens file")
    static func forbidden(_ detail: String) -> Problem { Problem(.forbidden, "forbidden", "The token does not allow this", detail) }
    static let overloaded = Problem(
        .serviceUnavailable, "overloaded", "The server is busy", "every request slot is taken; try again after Retry-After seconds")
    static func timeout(_ seconds: Double) -> Problem {
        Problem(.serviceUnavailable, "timeout", "The request took too long", "no answer within the server's limit of \(seconds) s")
    }
    static func store(_ error: StoreError) -> Problem {
        switch error.kind {
        case .locked: Problem(.serviceUnavailable, "store_locked", "The users' database is locked", error.description)
        case .corrupt: Problem(.internalServerError, "store_corrupt", "The users' database is damaged", error.description)
        case .unavailable: Problem(.internalServerError, "store_unavailable", "The users' database cannot be used", error.description)
        }
    }
}
