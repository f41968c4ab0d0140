import Foundation
import ParlanceContext
import ParlanceParser
import ParlanceText

/// One line of `parlance batch` output (records.md "Output record").
public struct OutputRecord: Sendable, Encodable {
    /// The `intent` of an output record, or one of its `alternatives`: an `IntentFrame` as records.md
    /// writes it.
    public struct Intent: Sendable, Encodable {
        /// The intent's domain ("messaging"; "custom" for an intent an app declares).
        public let domain: String
        /// The intent's name ("sendMessage").
        public let name: String
        /// The app named or inferred; written as null when not known.
        public let app: String?
        /// How sure the parser is of this reading, from 0 to 1.
        public let confidence: Double
        /// The parameter values in utterance order, a list parameter once per value.
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

        /// Writes `domain`, `name`, `app` (null when not known), `confidence` and `parameters`, and
        /// `missing` when it is not empty.
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

    /// Why a line has no parse (records.md `error`): a code for programs and a message for people.
    public struct RecordError: Error, Sendable, Encodable, Hashable {
        /// The kind of failure: "bad_json", "too_deep", "bad_field", "missing_text", "invalid_utf8", "too_long",
        /// "bad_locale", "bad_reference_time", "parse_failed", "too_slow".
        public let code: String
        /// What went wrong, in words, with the start of the line when it is not JSON.
        public let message: String

        /// An error with its code and its message.
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// The input record's `id` (a number given as its digits), or the line number for plain-text input;
    /// nil when the record has none or the line could not be read.
    public let id: String?
    /// The locale tag the line was parsed in (its own or the default); nil when the line could not be
    /// read.
    public let locale: String?
    /// The utterance; nil when the line could not be read or has no `text`.
    public let text: String?
    /// The intent understood; nil (written as null) when nothing matched, the app named is not
    /// available, or the line failed (`error`).
    public let intent: Intent?
    /// Other intents that also matched, best first; empty when the line failed.
    public let alternatives: [Intent]
    /// Why there is no intent ("MonkeyFit does not handle sendMessage"), when none.
    public let reason: String?
    /// How the decision was made; only when explanations were asked for (`explain`).
    public let explanation: Explanation?
    /// The shortcut said, or the shortcuts to choose between (records.md extension).
    public let shortcut: Resolution?
    /// The app named that the user does not have (records.md extension).
    public let unavailableApp: String?
    /// Why the line could not be parsed; nil (written as null) when it was.
    public let error: RecordError?

    /// The record of a parsed line; `explain` says whether to keep the result's explanation.
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

    /// The record of a line that could not be parsed: no intent, no alternatives, and `error`.
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

    /// Writes the fields records.md names: `id`, `locale`, `text`, `intent`, `alternatives` and `error`
    /// always (null when absent); `reason`, `unavailableApp`, `explanation` and `shortcut` only when
    /// present.
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
    /// The record's `id`, given as a string or a number; nil when absent or of another type.
    public let id: String?
    /// The utterance (`text`); nil when absent or not a string.
    public let text: String?
    /// The BCP 47 locale tag (`locale`); nil when absent, and then the batch's default locale applies.
    public let locale: String?
    /// The ISO 8601 time relative dates are resolved against (`reference_time`); nil for now.
    public let referenceTime: String?
    /// A field of the wrong type ("text" a number): the record is an error that keeps its id.
    public let badField: String?

    enum CodingKeys: String, CodingKey {
        case id, text, locale
        case referenceTime = "reference_time"
    }

    /// A record with these fields (`InputRecordReader`'s).
    init(id: String?, text: String?, locale: String?, referenceTime: String?, badField: String?) {
        self.id = id
        self.text = text
        self.locale = locale
        self.referenceTime = referenceTime
        self.badField = badField
    }

    /// Decodes a record without failing on a field of the wrong type: that field is nil and named in
    /// `badField`. Throws only when the line is not a JSON object.
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
    /// The record written for each line.
    associatedtype Record: Encodable
    /// The record of one input line, given as its bytes.
    func process(_ line: [UInt8]) -> Record
    /// The line with its number in the input (from 1); by default the number is not used.
    func process(_ line: [UInt8], number: Int) -> Record
    /// Whether the record reports a failure (counted for the exit status).
    func failed(_ record: Record) -> Bool
    /// The record as one line of JSON, without the newline; by default through `encoder`.
    func encode(_ record: Record, with encoder: JSONEncoder) throws -> Data
}

extension LineProcessor {
    /// Processes the line without its number (`process(_:)`).
    public func process(_ line: [UInt8], number: Int) -> Record { process(line) }

    /// The record through `encoder` (`ParlanceJSON.encoder()`).
    public func encode(_ record: Record, with encoder: JSONEncoder) throws -> Data { try encoder.encode(record) }
}

/// Parses one batch line into exactly one output record; never throws.
public struct BatchLineProcessor: LineProcessor {
    /// The parser each utterance goes through (an `IntentParser`, or one followed by the resolver).
    public let parser: any UtteranceParser
    /// The locale tag of records that name none, and of plain-text lines.
    public let defaultLocale: String
    /// Whether records include the parse's `explanation`.
    public let explain: Bool
    /// Each line is an utterance, not a JSON record; its id is its line number.
    public let plainText: Bool
    /// Lines longer than this many bytes are refused (error "too_long").
    public static let maxLineBytes = 65_536

    /// A processor that parses lines with `parser`, in `defaultLocale` when a record names no locale;
    /// `explain` adds explanations, and `plainText` reads each line as an utterance.
    public init(parser: any UtteranceParser, defaultLocale: String, explain: Bool = false, plainText: Bool = false) {
        self.parser = parser
        self.defaultLocale = defaultLocale
        self.explain = explain
        self.plainText = plainText
    }

    /// Whether the record reports an error: a line that was parsed has not failed, even when no intent
    /// matched.
    public func failed(_ record: OutputRecord) -> Bool { record.error != nil }

    /// The record written by hand (`OutputRecord.jsonLine()`): the bytes `encoder` would give.
    public func encode(_ record: OutputRecord, with encoder: JSONEncoder) throws -> Data { Data(try record.jsonLine()) }

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

    /// The output record of a line; with `plainText`, `number` becomes the record's id.
    public func process(_ line: [UInt8], number: Int) -> OutputRecord { processWithResult(line, number: number).record }

    /// The output record of a line read as a JSON record, whatever `plainText` says (a plain-text line
    /// needs its number: `process(_:number:)`).
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
        // The common line read in one pass (`InputRecordReader`); any other through the decoder.
        if line.count <= Self.maxLineBytes, String(validating: line, as: UTF8.self) != nil, let quick = InputRecordReader.read(line) {
            record = quick
        } else {
            switch Self.decode(line, as: InputRecord.self) {
            case .failure(let error): return (OutputRecord(id: nil, locale: nil, text: nil, error: error), nil)
            case .success(let decoded): record = decoded
            }
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
