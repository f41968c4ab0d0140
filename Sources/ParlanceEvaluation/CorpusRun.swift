import Foundation
import ParlanceContext
import ParlanceParser
import ParlanceText

/// Parses annotated records and measures the parses, per locale.
public struct CorpusRun: Sendable {
    /// The parser every record goes through.
    public let parser: any UtteranceParser

    /// Creates a run that parses with `parser`.
    public init(parser: any UtteranceParser) { self.parser = parser }

    /// One record and what came of parsing it.
    public struct Outcome: Sendable {
        /// The annotated record that was parsed.
        public let record: AnnotatedRecord
        /// What the parser gave; nil when the record could not be parsed (see `error`).
        public let result: ParseResult?
        /// Why the record could not be parsed (a bad locale or reference time, a parser error), as text;
        /// nil when it was parsed. The report counts such a record as a failure.
        public let error: String?
    }

    /// Parses every record (in parallel on `jobs` workers), keeping input order.
    public func parse(
        _ records: [AnnotatedRecord], defaultLocale: String = "en-US", jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) -> [Outcome] {
        let outcomes = UnsafeMutableBufferPointer<Outcome?>.allocate(capacity: records.count)
        outcomes.initialize(repeating: nil)
        defer {
            _ = outcomes.deinitialize()
            outcomes.deallocate()
        }
        let box = UnsafeSendable(outcomes.baseAddress!)
        let workers = max(1, min(jobs, records.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var i = worker
            while i < records.count {
                let record = records[i]
                do {
                    let locale = try ParlanceLocale(record.locale ?? defaultLocale)
                    let reference = try record.referenceTime.map { try ReferenceTime(iso8601: $0) } ?? .now()
                    box.pointer[i] = Outcome(
                        record: record, result: try parser.parse(record.text, locale: locale, referenceTime: reference), error: nil)
                } catch {
                    box.pointer[i] = Outcome(record: record, result: nil, error: "\(error)")
                }
                i += workers
            }
        }
        return (0..<records.count).map { outcomes[$0]! }
    }
}
