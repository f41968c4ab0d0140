import Foundation
import ParlanceContext
import ParlanceParser
import ParlanceText

/// An annotated corpus line (records.md input record with `expected`).
public struct AnnotatedRecord: Sendable, Decodable {
    /// What the line should parse to (records.md `expected`).
    public struct Expected: Sendable, Decodable {
        /// The expected domain ("messaging"); nil when the utterance is out of domain and must be
        /// rejected (`"domain": null`).
        public var domain: String?
        /// The expected intent name ("sendMessage"); nil out of domain. A record counts as in domain
        /// exactly when this is set.
        public var intent: String?
        /// The app that should handle the request ("MonkeyChat"); nil when no app is expected (out-of-domain
        /// lines, `intent-only` training lines).
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

    /// The record's id (records.md `id`, "es-msg-0001"); sample errors name the record by it.
    public var id: String
    /// The utterance to parse (records.md `text`).
    public var text: String
    /// The BCP 47 locale tag (records.md `locale`, "es-ES"); nil falls back to the run's default locale.
    public var locale: String?
    /// The ISO 8601 time that relative dates are resolved against (records.md `reference_time`); nil
    /// means now. A value that cannot be read makes the record a failure.
    public var referenceTime: String?
    /// What the parser should give (records.md `expected`); required in an annotated corpus.
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
    /// The expected kind of resolution (records.md `resolution.<name>.kind`).
    public var kind: Resolution.Kind
    /// The expected item ids (records.md `resolution.<name>.items`): one for `success` and
    /// `confirmationRequired`, the options in any order for `disambiguation`, none for the other kinds.
    public var items: [String]

    enum CodingKeys: String, CodingKey { case kind, items }

    /// Creates an expected resolution of `kind` with the item ids `items` (none by default).
    public init(kind: Resolution.Kind, items: [String] = []) {
        self.kind = kind
        self.items = items
    }

    /// Decodes `{"kind": K, "items": [ids]}`; a missing `items` is an empty list.
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
    /// One expected resolution (a JSON object), compared with the parameter's first value.
    case one(ExpectedResolution)
    /// One expected resolution per value, in utterance order (a JSON array): a list parameter said
    /// more than once.
    case each([ExpectedResolution])

    /// Decodes a JSON array as `each` and anything else as `one`.
    public init(from decoder: any Decoder) throws {
        if let list = try? [ExpectedResolution](from: decoder) {
            self = .each(list)
        } else {
            self = .one(try ExpectedResolution(from: decoder))
        }
    }

    /// The expected resolutions in utterance order (a single element for `one`).
    public var all: [ExpectedResolution] {
        switch self {
        case .one(let r): [r]
        case .each(let list): list
        }
    }
}

/// A corpus or outcome file that cannot be read, or a line of it that is not a valid record.
public struct CorpusError: Error, Sendable, CustomStringConvertible {
    /// The file's path, as given.
    public let file: String
    /// The line number, counting from 1 with blank lines included; 0 when the error concerns the whole
    /// file (it does not exist or cannot be read).
    public let line: Int
    /// What is wrong with the line or the file.
    public let message: String
    /// `file:line: message`, as compilers print errors.
    public var description: String { "\(file):\(line): \(message)" }
}

/// Any JSON value, typed (for expected parameter values).
public enum JSONValue: Sendable, Hashable, Codable {
    /// A JSON string.
    case string(String)
    /// A JSON number, held as a `Double` (integers too).
    case number(Double)
    /// A JSON `true` or `false`.
    case bool(Bool)
    /// A JSON array, in order.
    case array([JSONValue])
    /// A JSON object, by key.
    case object([String: JSONValue])
    /// JSON `null`.
    case null

    /// Decodes any JSON value: null, a boolean, a number, a string, an array or an object.
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

    /// Encodes the value as the JSON it stands for.
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
    /// Lists the corpus files named by `paths`: a folder is searched recursively for files ending in
    /// `.jsonl`; a file is kept whatever its name. The result is sorted by path.
    /// - Throws: `CorpusError` (line 0) for a path that does not exist.
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
