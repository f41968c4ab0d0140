import Foundation
import ParlanceParser
import ParlanceText

/// Parses annotated records and measures the parses, per locale.
public struct CorpusRun: Sendable {
    public let parser: any UtteranceParser

    public init(parser: any UtteranceParser) { self.parser = parser }

    public struct Outcome: Sendable {
        public let record: AnnotatedRecord
        public let result: ParseResult?
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
