import Foundation
import ParlanceText

/// One line of `parlance batch` output (records.md "Output record").
public struct OutputRecord: Sendable, Encodable {
    public struct Intent: Sendable, Encodable {
        public let domain: String
        public let name: String
        public let app: String?
        public let confidence: Double
        public let parameters: [Parameter]
        /// Required parameters not said, with `needsValue` (records.md extension).
        public let missing: [MissingParameter]

        init(_ frame: IntentFrame) {
            domain = frame.domain
            name = frame.name
            app = frame.app
            confidence = frame.confidence
            parameters = frame.parameters
            missing = frame.missing
        }

        enum CodingKeys: String, CodingKey { case domain, name, app, confidence, parameters, missing }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(domain, forKey: .domain)
            try c.encode(name, forKey: .name)
            try c.encode(app, forKey: .app)  // null when not known
            try c.encode(confidence, forKey: .confidence)
            try c.encode(parameters, forKey: .parameters)
            if !missing.isEmpty { try c.encode(missing, forKey: .missing) }
        }
    }

    public struct RecordError: Error, Sendable, Encodable, Hashable {
        /// "bad_json", "missing_text", "invalid_utf8", "too_long", "bad_locale", "bad_reference_time", "parse_failed", "too_slow".
        public let code: String
        public let message: String

        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    public let id: String?
    public let locale: String?
    public let text: String?
    public let intent: Intent?
    public let alternatives: [Intent]
    /// Why there is no intent ("MonkeyFit does not handle sendMessage"), when none.
    public let reason: String?
    public let explanation: Explanation?
    /// The shortcut said, or the shortcuts to choose between (records.md extension).
    public let shortcut: Resolution?
    /// The app named that the user does not have (records.md extension).
    public let unavailableApp: String?
    public let error: RecordError?

    public init(id: String?, locale: String?, text: String, result: ParseResult, explain: Bool) {
        self.id = id
        self.locale = locale
        self.text = text
        self.intent = result.intent.map(Intent.init)
        self.alternatives = result.alternatives.map(Intent.init)
        self.reason = result.reason
        self.explanation = explain ? result.explanation : nil
        self.shortcut = result.shortcut
        self.unavailableApp = result.unavailableApp
        self.error = nil
    }

    public init(id: String?, locale: String?, text: String?, error: RecordError) {
        self.id = id
        self.locale = locale
        self.text = text
        self.intent = nil
        self.alternatives = []
        self.reason = nil
        self.explanation = nil
        self.shortcut = nil
        self.unavailableApp = nil
        self.error = error
    }

    enum CodingKeys: String, CodingKey { case id, locale, text, intent, alternatives, reason, unavailableApp, explanation, shortcut, error }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(locale, forKey: .locale)
        try c.encode(text, forKey: .text)
        try c.encode(intent, forKey: .intent)  // null when nothing matched
        try c.encode(alternatives, forKey: .alternatives)
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encodeIfPresent(unavailableApp, forKey: .unavailableApp)
        try c.encodeIfPresent(explanation, forKey: .explanation)
        try c.encodeIfPresent(shortcut, forKey: .shortcut)
        try c.encode(error, forKey: .error)
    }
}

/// One line of batch input (records.md "Input record"); other fields are ignored.
public struct InputRecord: Sendable, Decodable {
    public let id: String?
    public let text: String?
    public let locale: String?
    public let referenceTime: String?
    /// A field of the wrong type ("text" a number): the record is an error that keeps its id.
    public let badField: String?

    enum CodingKeys: String, CodingKey {
        case id, text, locale
        case referenceTime = "reference_time"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = Self.recordID(c, .id)
        var bad: String?
        func string(_ key: CodingKeys) -> String? {
            do { return try c.decodeIfPresent(String.self, forKey: key) } catch {
                if bad == nil { bad = key.stringValue }
                return nil
            }
        }
        text = string(.text)
        locale = string(.locale)
        referenceTime = string(.referenceTime)
        badField = bad
    }
}

extension InputRecord {
    /// A record's `id`, given as a string or a number; nil when absent or of another type.
    public static func recordID<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) -> String? {
        if let s = try? container.decodeIfPresent(String.self, forKey: key) { return s }
        if let n = try? container.decodeIfPresent(Int.self, forKey: key) { return String(n) }
        return nil
    }
}

/// Turns one input line into exactly one output record, never throwing: what a batch runner
/// streams lines through.
public protocol LineProcessor: Sendable {
    associatedtype Record: Encodable
    func process(_ line: [UInt8]) -> Record
    /// The line with its number in the input (from 1); by default the number is not used.
    func process(_ line: [UInt8], number: Int) -> Record
    /// Whether the record reports a failure (counted for the exit status).
    func failed(_ record: Record) -> Bool
}

extension LineProcessor {
    public func process(_ line: [UInt8], number: Int) -> Record { process(line) }
}

/// Parses one batch line into exactly one output record; never throws.
public struct BatchLineProcessor: LineProcessor {
    public let parser: any UtteranceParser
    public let defaultLocale: String
    public let explain: Bool
    /// Each line is an utterance, not a JSON record; its id is its line number.
    public let plainText: Bool
    /// Lines longer than this many bytes are refused (error "too_long").
    public static let maxLineBytes = 65_536

    public init(parser: any UtteranceParser, defaultLocale: String, explain: Bool = false, plainText: Bool = false) {
        self.parser = parser
        self.defaultLocale = defaultLocale
        self.explain = explain
        self.plainText = plainText
    }

    public func failed(_ record: OutputRecord) -> Bool { record.error != nil }

    /// A line's text, or why it cannot be read (too long, not UTF-8).
    public static func text(of line: [UInt8]) -> Result<String, OutputRecord.RecordError> {
        if line.count > maxLineBytes {
            return .failure(.init(code: "too_long", message: "line of more than \(maxLineBytes) bytes (the limit)"))
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            return .failure(.init(code: "invalid_utf8", message: "the line is not valid UTF-8"))
        }
        return .success(text)
    }

    /// A line decoded as a JSON record, or why it cannot be (too long, not UTF-8, not JSON).
    public static func decode<T: Decodable>(_ line: [UInt8], as type: T.Type) -> Result<T, OutputRecord.RecordError> {
        text(of: line).flatMap { string in
            do {
                return .success(try JSONGuard.decode(T.self, from: Data(string.utf8)))
            } catch let error as JSONGuard.TooDeep {
                return .failure(.init(code: "too_deep", message: "\(error): \(string.prefix(80))"))
            } catch {
                return .failure(.init(code: "bad_json", message: "not a JSON object with string fields: \(string.prefix(80))"))
            }
        }
    }

    public func process(_ line: [UInt8], number: Int) -> OutputRecord { processWithResult(line, number: number).record }

    public func process(_ line: [UInt8]) -> OutputRecord { processWithResult(line, number: nil).record }

    /// The line's output record and, when the line was parsed, the parse it reports (for
    /// callers that measure the parse: `batch --outcomes`). With `plainText`, a line with its
    /// number is an utterance; otherwise it is a JSON record.
    public func processWithResult(_ line: [UInt8], number: Int?) -> (record: OutputRecord, result: ParseResult?) {
        if plainText, let number {
            let id = String(number)
            switch Self.text(of: line) {
            case .failure(let error): return (OutputRecord(id: id, locale: nil, text: nil, error: error), nil)
            case .success(let text): return parse(id: id, text: text, localeTag: defaultLocale, referenceTime: nil)
            }
        }
        let record: InputRecord
        switch Self.decode(line, as: InputRecord.self) {
        case .failure(let error): return (OutputRecord(id: nil, locale: nil, text: nil, error: error), nil)
        case .success(let decoded): record = decoded
        }
        if let field = record.badField {
            return (
                OutputRecord(
                    id: record.id, locale: record.locale, text: record.text,
                    error: .init(code: "bad_field", message: "\"\(field)\" is not a string")), nil
            )
        }
        guard let text = record.text else {
            return (
                OutputRecord(
                    id: record.id, locale: record.locale, text: nil,
                    error: .init(code: "missing_text", message: "the record has no \"text\"")), nil
            )
        }
        return parse(id: record.id, text: text, localeTag: record.locale ?? defaultLocale, referenceTime: record.referenceTime)
    }

    private func parse(id: String?, text: String, localeTag tag: String, referenceTime: String?) -> (
        record: OutputRecord, result: ParseResult?
    ) {
        let locale: ParlanceLocale
        do { locale = try ParlanceLocale(tag) } catch {
            return (OutputRecord(id: id, locale: tag, text: text, error: .init(code: "bad_locale", message: error.description)), nil)
        }
        let reference: ReferenceTime
        if let time = referenceTime {
            do { reference = try ReferenceTime(iso8601: time) } catch {
                return (
                    OutputRecord(id: id, locale: tag, text: text, error: .init(code: "bad_reference_time", message: error.description)), nil
                )
            }
        } else {
            reference = .now()
        }
        do {
            let result = try parser.parse(text, locale: locale, referenceTime: reference)
            return (OutputRecord(id: id, locale: tag, text: text, result: result, explain: explain), result)
        } catch let error as IntentParser.TooSlow {
            return (OutputRecord(id: id, locale: tag, text: text, error: .init(code: "too_slow", message: error.description)), nil)
        } catch {
            return (OutputRecord(id: id, locale: tag, text: text, error: .init(code: "parse_failed", message: "\(error)")), nil)
        }
    }
}
