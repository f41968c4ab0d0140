import Foundation
import ParlanceContext
import ParlanceParser
import ParlanceText

/// What one annotated line adds to its locale's report, or what many lines add together:
/// the summable counts of `EvaluationReport.LocaleReport` (records.md extension,
/// `batch --outcomes`). As JSON, `{"locale": "en-US", "counts": {...}}`, where every leaf of
/// `counts` is a number and the counts of two outcomes of a locale add up key by key (an
/// object missing from one side counts as zeros). `eval --from-outcomes` reads such lines,
/// sums them per locale and writes the report `eval` would have written for those lines,
/// less the sample errors.
public struct ReportOutcome: Sendable, Codable {
    /// The record's locale tag (its `locale`, or the batch's default locale).
    public var locale: String
    /// What the line adds to that locale's report.
    public var counts: LocaleCounts

    /// Creates an outcome adding `counts` to the locale `locale`.
    public init(locale: String, counts: LocaleCounts) {
        self.locale = locale
        self.counts = counts
    }

    /// The outcome of one parsed record, as `parlance eval` counts it.
    public init(_ outcome: CorpusRun.Outcome, locale: String, catalogue: IntentCatalogue = .standard) {
        var report = EvaluationReport.LocaleReport()
        report.add(outcome, catalogue: catalogue)
        self.init(locale: locale, counts: LocaleCounts(report))
    }

    /// Outcome lines (JSON Lines; blank lines skipped) summed per locale. A line that is not an
    /// outcome is an error naming the file and the line.
    public static func sum(jsonLines data: Data, file: String) throws -> [String: EvaluationReport.LocaleReport] {
        var locales: [String: EvaluationReport.LocaleReport] = [:]
        for (n, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            let outcome: ReportOutcome
            do { outcome = try JSONGuard.decode(ReportOutcome.self, from: Data(line)) } catch let error as DecodingError {
                throw CorpusError(file: file, line: n + 1, message: "not an outcome: \(LanguageResources.describe(error))")
            } catch {
                throw CorpusError(file: file, line: n + 1, message: "not an outcome: \(error)")
            }
            locales[outcome.locale, default: .init(countsOnly: ())].merge(outcome.counts.report)
        }
        return locales
    }
}

/// A locale's report in its counts form (`ReportOutcome.counts`): only the fields that are
/// sums over records, each as the sum it is. Zero counts and empty tables are left out;
/// a parameter, intent or domain entry always carries its three counts, and `resolution`
/// is there when a record had an expected resolution, as in report.json. Calibration bins
/// are keyed by their index ("0" for confidences under 0.1 … "9"), empty bins left out.
public struct LocaleCounts: Sendable, Codable {
    /// The report whose counts these are; only its summable fields are written, and one read from
    /// JSON keeps no sample errors.
    public var report: EvaluationReport.LocaleReport

    /// Wraps `report`; its sample errors are not written.
    public init(_ report: EvaluationReport.LocaleReport) { self.report = report }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Score: Codable {
        var expected: Int
        var predicted: Int
        var correct: Double
    }

    struct Bin: Codable {
        var count: Int
        var confidenceSum: Double
        var correct: Int
    }

    /// The integer counts, by their report.json name.
    static var integers: [(String, WritableKeyPath<EvaluationReport.LocaleReport, Int>)] {
        [
            ("records", \.records), ("inDomain", \.inDomain), ("outOfDomain", \.outOfDomain), ("failures", \.failures),
            ("intentCorrect", \.intentCorrect), ("appCorrect", \.appCorrect), ("exactFrames", \.exactFrames),
            ("rejected", \.rejected), ("falselyRejected", \.falselyRejected), ("knownInDomain", \.knownInDomain),
            ("knownIntentCorrect", \.knownIntentCorrect), ("unavailableAppExpected", \.unavailableAppExpected),
            ("unavailableAppCorrect", \.unavailableAppCorrect)
        ]
    }

    static var scores: [(String, WritableKeyPath<EvaluationReport.LocaleReport, [String: EvaluationReport.Score]>)] {
        [
            ("perDomain", \.perDomain), ("perIntent", \.perIntent), ("perParameter", \.perParameter)
        ]
    }

    /// Writes the nonzero counts and nonempty tables of `report` under their report.json names.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for (name, path) in Self.integers where report[keyPath: path] != 0 { try c.encode(report[keyPath: path], forKey: Key(name)) }
        for (name, path) in Self.scores where !report[keyPath: path].isEmpty {
            try c.encode(
                report[keyPath: path].mapValues { Score(expected: $0.expected, predicted: $0.predicted, correct: $0.correct) },
                forKey: Key(name))
        }
        if !report.confusion.isEmpty { try c.encode(report.confusion, forKey: Key("confusion")) }
        var bins: [String: Bin] = [:]
        for (i, bin) in report.calibration.bins.enumerated() where bin.count > 0 {
            bins[String(i)] = Bin(count: bin.count, confidenceSum: bin.confidenceSum, correct: bin.correct)
        }
        if !bins.isEmpty { try c.encode(bins, forKey: Key("calibration")) }
        try c.encodeIfPresent(report.resolution, forKey: Key("resolution"))
    }

    /// Reads counts as `encode(to:)` writes them; a missing count is 0. Throws a `DecodingError` for a
    /// key that is not a known count, or a calibration bin other than "0" to "9".
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        var report = EvaluationReport.LocaleReport(countsOnly: ())
        let known = Set(Self.integers.map(\.0) + Self.scores.map(\.0) + ["confusion", "calibration", "resolution"])
        if let unknown = c.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorruptedError(forKey: unknown, in: c, debugDescription: "unknown count \"\(unknown.stringValue)\"")
        }
        for (name, path) in Self.integers { report[keyPath: path] = try c.decodeIfPresent(Int.self, forKey: Key(name)) ?? 0 }
        for (name, path) in Self.scores {
            report[keyPath: path] = try (c.decodeIfPresent([String: Score].self, forKey: Key(name)) ?? [:]).mapValues {
                var score = EvaluationReport.Score()
                score.expected = $0.expected
                score.predicted = $0.predicted
                score.correct = $0.correct
                return score
            }
        }
        report.confusion = try c.decodeIfPresent([String: [String: Int]].self, forKey: Key("confusion")) ?? [:]
        for (key, bin) in try c.decodeIfPresent([String: Bin].self, forKey: Key("calibration")) ?? [:] {
            guard let i = Int(key), report.calibration.bins.indices.contains(i) else {
                throw DecodingError.dataCorruptedError(forKey: Key("calibration"), in: c, debugDescription: "no calibration bin \"\(key)\"")
            }
            report.calibration.bins[i].count = bin.count
            report.calibration.bins[i].confidenceSum = bin.confidenceSum
            report.calibration.bins[i].correct = bin.correct
        }
        report.resolution = try c.decodeIfPresent(ResolutionMetrics.self, forKey: Key("resolution"))
        self.report = report
    }
}

extension EvaluationReport.LocaleReport {
    /// An empty report of counts only (no sample errors kept).
    init(countsOnly: Void) {
        self.init()
        samplesKept = false
    }

    /// Adds another report's counts (every field that is a sum over records); sample errors
    /// are not merged: their order is the corpus's.
    public mutating func merge(_ other: Self) {
        for (_, path) in LocaleCounts.integers { self[keyPath: path] += other[keyPath: path] }
        for (_, path) in LocaleCounts.scores {
            for (name, score) in other[keyPath: path] {
                self[keyPath: path][name, default: .init()].expected += score.expected
                self[keyPath: path][name, default: .init()].predicted += score.predicted
                self[keyPath: path][name, default: .init()].correctSum.add(score.correctSum)
            }
        }
        for (expected, row) in other.confusion {
            for (predicted, n) in row { confusion[expected, default: [:]][predicted, default: 0] += n }
        }
        for (i, bin) in other.calibration.bins.enumerated() {
            calibration.bins[i].count += bin.count
            calibration.bins[i].confidenceTotal.add(bin.confidenceTotal)
            calibration.bins[i].correct += bin.correct
        }
        if let theirs = other.resolution { resolution = (resolution ?? ResolutionMetrics()) + theirs }
    }
}

/// `batch --outcomes`: each output record, and for a line that `parlance eval` would measure,
/// its outcome (`ReportOutcome`) under `"outcome"`. Eval measures a line when it is an
/// annotated record (a string `id`, `text` and `expected`) whose language has a grammar, and
/// counts a line it could not parse (a bad reference time) as a failure; lines the batch
/// cannot read (bad JSON, no text, a field of the wrong type, over 64 KiB, a bad locale) and
/// lines without `expected` carry no outcome.
public struct OutcomeLineProcessor: LineProcessor {
    /// The batch processor that turns each line into its output record (parser, default locale,
    /// plain text or JSON).
    public let batch: BatchLineProcessor
    /// The intent catalogue outcomes are measured with: which intents are known and which parameters
    /// are text.
    public let catalogue: IntentCatalogue
    /// Languages measured (eval's default: every language with a grammar).
    public let languages: Set<String>

    /// Creates a processor over `batch`; by default it measures as `parlance eval` does, with the
    /// standard catalogue and every language that has a grammar.
    public init(
        batch: BatchLineProcessor, catalogue: IntentCatalogue = .standard, languages: Set<String> = Set(IntentParser.supportedLanguages)
    ) {
        self.batch = batch
        self.catalogue = catalogue
        self.languages = languages
    }

    /// An output record with its outcome, if any, as one JSON object.
    public struct Record: Encodable {
        /// The output record, as `parlance batch` writes it.
        public let output: OutputRecord
        /// The line's outcome; nil when eval would not measure the line.
        public let outcome: ReportOutcome?

        enum CodingKeys: String, CodingKey { case outcome }

        /// Writes the output record's fields and, when there is an outcome, an `"outcome"` field in the
        /// same JSON object.
        public func encode(to encoder: any Encoder) throws {
            try output.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(outcome, forKey: .outcome)
        }
    }

    /// Errors met after the record was read: eval counts such a record as a failure.
    static let parseErrors: Set<String> = ["bad_reference_time", "parse_failed", "too_slow"]

    /// Whether the line failed: its output record carries an error.
    public func failed(_ record: Record) -> Bool { batch.failed(record.output) }

    /// The output record and outcome of one line, without its line number.
    public func process(_ line: [UInt8]) -> Record { record(for: line, number: nil) }

    /// The output record and outcome of line `number` of the input (from 1); a plain-text line takes
    /// the number as its id.
    public func process(_ line: [UInt8], number: Int) -> Record { record(for: line, number: number) }

    private func record(for line: [UInt8], number: Int?) -> Record {
        let (output, result) = batch.processWithResult(line, number: number)
        return Record(output: output, outcome: outcome(of: line, output: output, result: result))
    }

    func outcome(of line: [UInt8], output: OutputRecord, result: ParseResult?) -> ReportOutcome? {
        if let error = output.error, !Self.parseErrors.contains(error.code) { return nil }
        guard !batch.plainText, case .success(let record) = BatchLineProcessor.decode(line, as: AnnotatedRecord.self) else { return nil }
        let tag = record.locale ?? batch.defaultLocale
        guard let language = try? ParlanceLocale(tag).language, languages.contains(language) else { return nil }
        return ReportOutcome(
            CorpusRun.Outcome(record: record, result: result, error: output.error?.message), locale: tag, catalogue: catalogue)
    }
}
