import Foundation
import ParlanceParser
import ParlanceText

/// An annotated corpus line (records.md input record with `expected`).
public struct AnnotatedRecord: Sendable, Decodable {
    public struct Expected: Sendable, Decodable {
        public var domain: String?
        public var intent: String?
        public var app: String?
        /// Parameter name → surface value(s) or typed value(s), as JSON.
        public var parameters: [String: JSONValue]
        /// Parameter name → the expected resolution of its value, or of each value in
        /// utterance order (a list parameter said twice).
        public var resolution: [String: ExpectedResolutions]?
        /// The app named that the user does not have (records.md extension), on a line with no intent.
        public var unavailableApp: String?

        /// The surface strings of each parameter (a string, or a list of strings); typed values
        /// are left out.
        public var surfaceValues: [String: [String]] {
            var result: [String: [String]] = [:]
            for (name, value) in parameters {
                switch value {
                case .string(let s): result[name] = [s]
                case .array(let items):
                    let strings = items.compactMap { if case .string(let s) = $0 { s } else { nil } }
                    if strings.count == items.count, !strings.isEmpty { result[name] = strings }
                default: continue
                }
            }
            return result
        }
    }

    public var id: String
    public var text: String
    public var locale: String?
    public var referenceTime: String?
    public var expected: Expected
    /// "intent-only" for training lines whose parameters are not annotated.
    public var annotation: String?

    enum CodingKeys: String, CodingKey {
        case id, text, locale, expected, annotation
        case referenceTime = "reference_time"
    }

    /// Reads a .jsonl corpus file; a bad line is an error naming the file and line.
    public static func load(_ path: String) throws -> [AnnotatedRecord] {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw CorpusError(file: path, line: 0, message: "cannot read: \(FileErrorText.describe(error))")
        }
        // Lines end in LF or CRLF (one Character in Swift); blank lines are skipped but counted.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
        return try lines.filter { !$0.element.allSatisfy(\.isWhitespace) }.map { n, line in
            do {
                return try JSONGuard.decode(AnnotatedRecord.self, from: Data(line.utf8))
            } catch let error as DecodingError {
                throw CorpusError(file: path, line: n + 1, message: LanguageResources.describe(error))
            } catch let error as JSONGuard.TooDeep {
                throw CorpusError(file: path, line: n + 1, message: "\(error)")
            }
        }
    }
}

/// An expected resolution: its kind, and the item ids (one for success and
/// confirmationRequired; the options for disambiguation, in any order).
public struct ExpectedResolution: Sendable, Hashable, Decodable {
    public var kind: Resolution.Kind
    public var items: [String]

    enum CodingKeys: String, CodingKey { case kind, items }

    public init(kind: Resolution.Kind, items: [String] = []) {
        self.kind = kind
        self.items = items
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(Resolution.Kind.self, forKey: .kind)
        items = try c.decodeIfPresent([String].self, forKey: .items) ?? []
    }

    /// Whether a predicted resolution is this one.
    public func matches(_ predicted: Resolution?) -> Bool {
        guard let predicted, predicted.kind == kind else { return false }
        switch kind {
        case .success, .confirmationRequired: return predicted.items.map(\.id) == items
        case .disambiguation: return Set(predicted.items.map(\.id)) == Set(items)
        case .needsMoreDetails, .needsValue, .unsupported, .notRequired: return true
        }
    }
}

/// One expected resolution, or one per value.
public enum ExpectedResolutions: Sendable, Hashable, Decodable {
    case one(ExpectedResolution)
    case each([ExpectedResolution])

    public init(from decoder: any Decoder) throws {
        if let list = try? [ExpectedResolution](from: decoder) {
            self = .each(list)
        } else {
            self = .one(try ExpectedResolution(from: decoder))
        }
    }

    public var all: [ExpectedResolution] {
        switch self {
        case .one(let r): [r]
        case .each(let list): list
        }
    }
}

public struct CorpusError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let message: String
    public var description: String { "\(file):\(line): \(message)" }
}

/// Any JSON value, typed (for expected parameter values).
public enum JSONValue: Sendable, Hashable, Codable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .number(let n): try c.encode(n)
        case .bool(let b): try c.encode(b)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        case .null: try c.encodeNil()
        }
    }
}

/// The .jsonl files under the given files and folders (recursively), sorted.
public enum CorpusFiles {
    public static func list(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CorpusError(file: path, line: 0, message: "no such file or folder")
            }
            if isDirectory.boolValue {
                let enumerator = FileManager.default.enumerator(atPath: path)
                while let item = enumerator?.nextObject() as? String {
                    if item.hasSuffix(".jsonl") { files.append((path as NSString).appendingPathComponent(item)) }
                }
            } else {
                files.append(path)
            }
        }
        return files.sorted()
    }
}
