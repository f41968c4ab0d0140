import Foundation
import Testing

@testable import ParlanceText

/// Where the data-driven cases live: `Cases/<language>/*.jsonl`, next to this file.
enum CaseFiles {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let cases = directory.appendingPathComponent("Cases")
    static let golden = directory.appendingPathComponent("Golden")

    static let referenceTime = "2026-11-21T10:00:00+01:00"

    /// Each line of `Cases/<language>/<file>` as a JSON object, with its line number.
    static func lines(_ language: String, _ file: String) throws -> [(line: Int, object: [String: Any])] {
        let url = cases.appendingPathComponent(language).appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { n, line in
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (n + 1, try #require(object, "\(language)/\(file):\(n + 1) is not a JSON object"))
        }
    }

    /// JSON values compared as JSON (20 == 20.0, key order ignored).
    static func same(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case (let x as [String: Any], let y as [String: Any]):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        case (let x as [Any], let y as [Any]):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (let x as NSNumber, let y as NSNumber):
            return abs(x.doubleValue - y.doubleValue) < 1e-9
        case (let x as String, let y as String):
            return x == y
        case (is NSNull, is NSNull):
            return true
        default:
            return false
        }
    }

    /// An Encodable value as a JSON object.
    static func json<T: Encodable>(_ value: T) throws -> Any {
        try JSONSerialization.jsonObject(with: try JSONEncoder().encode(value), options: [.fragmentsAllowed])
    }

    static func text(_ any: Any) -> String {
        guard JSONSerialization.isValidJSONObject(any),
            let data = try? JSONSerialization.data(withJSONObject: any, options: [.sortedKeys])
        else { return "\(any)" }
        return String(decoding: data, as: UTF8.self)
    }
}
