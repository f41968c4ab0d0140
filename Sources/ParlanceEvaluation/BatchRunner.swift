import Dispatch
import Foundation
import ParlanceContext
import ParlanceParser
import ParlanceText

/// Streams lines through the processor in chunks: memory stays bounded by the chunk size,
/// output keeps input order, and each chunk is spread over `jobs` workers.
public struct BatchRunner<Processor: LineProcessor>: Sendable {
    /// Turns each input line into exactly one output record.
    public let processor: Processor
    /// Worker threads per chunk; at least 1.
    public let jobs: Int
    /// Lines read and parsed together; memory is bounded by this, whatever the input size.
    public var chunkLines = 2048

    /// Creates a runner that spreads `processor` over `jobs` workers; a `jobs` below 1 is taken as 1.
    public init(processor: Processor, jobs: Int) {
        self.processor = processor
        self.jobs = max(1, jobs)
    }

    /// How far a run has got, reported after every chunk.
    public struct Progress: Sendable {
        /// Lines processed and written so far.
        public var lines = 0
        /// Lines among them whose record reports a failure (`LineProcessor.failed`).
        public var failures = 0
        /// Wall-clock seconds since the run started.
        public var seconds = 0.0
        /// Input bytes consumed (compressed bytes for a .gz file) and the input's size, when known.
        public var consumedBytes = 0
        /// The input's size in bytes (the compressed size for a .gz file); nil when unknown, as for standard
        /// input.
        public var totalBytes: Int?

        /// Lines processed per second so far; 0 before any time has passed.
        public var linesPerSecond: Double { seconds > 0 ? Double(lines) / seconds : 0 }
        /// Seconds left, from the share of the input consumed; nil when the size is unknown.
        public var eta: Double? {
            guard let totalBytes, totalBytes > 0, consumedBytes > 0, seconds > 0 else { return nil }
            return seconds * Double(totalBytes - consumedBytes) / Double(consumedBytes)
        }
    }

    /// Returns how many lines failed.
    public func run(input: FileHandle, output: FileHandle) throws -> Int {
        var source = input
        return try run(source: &source, output: output, progress: nil)
    }

    /// Returns how many lines failed; `progress` is called after each chunk is written.
    public func run<Source: ByteSource>(source input: inout Source, output: FileHandle, progress: ((Progress) -> Void)?) throws -> Int {
        var failures = 0
        var state = Progress()
        let started = ContinuousClock.now
        var pending: [[UInt8]] = []
        var lines = LineSplitter()
        let encoder = ParlanceJSON.encoder()
        func flush() throws {
            guard !pending.isEmpty else { return }
            let lines = pending
            let first = state.lines + 1
            // Each worker parses its lines and encodes their records too (one encoder per
            // worker): only the writing, in order, is left to this thread.
            let results = UnsafeMutableBufferPointer<Result<(bytes: Data, failed: Bool), Error>?>.allocate(capacity: lines.count)
            results.initialize(repeating: nil)
            defer {
                // The records must be released before the memory is: deallocate alone would leak them.
                _ = results.deinitialize()
                results.deallocate()
            }
            let workers = min(jobs, lines.count)
            let base = results.baseAddress!
            let box = UnsafeSendable(base)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let encoder = workers == 1 ? encoder : ParlanceJSON.encoder()
                var i = worker
                while i < lines.count {
                    let record = processor.process(lines[i], number: first + i)
                    box.pointer[i] = Result { (try processor.encode(record, with: encoder), processor.failed(record)) }
                    i += workers
                }
            }
            var out = Data()
            for i in 0..<lines.count {
                let (bytes, failed) = try results[i]!.get()
                if failed { failures += 1 }
                out.append(bytes)
                out.append(0x0A)
            }
            do { try output.write(contentsOf: out) } catch { throw BatchOutputError(reason: FileErrorText.describe(error)) }
            state.lines += lines.count
            state.failures = failures
            let elapsed = ContinuousClock.now - started
            state.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            (state.consumedBytes, state.totalBytes) = input.position
            progress?(state)
            pending.removeAll(keepingCapacity: true)
        }
        while true {
            let bytes: [UInt8]
            do { bytes = try input.read(upTo: 1 << 20) } catch {
                // Damaged input: the complete lines read before the damage are written, then
                // the error; a last line without its end is not a record.
                try flush()
                throw error
            }
            if bytes.isEmpty { break }
            try lines.feed(bytes) { line in
                pending.append(line)
                if pending.count >= chunkLines { try flush() }
            }
        }
        if let last = lines.finish() { pending.append(last) }
        try flush()
        return failures
    }
}

struct UnsafeSendable<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}

/// Records that could not be written (a full disk, a closed pipe): the run stops, since
/// nothing more it makes can be delivered.
public struct BatchOutputError: Error, Sendable, CustomStringConvertible {
    /// The system's reason ("No space left on device").
    public let reason: String
    /// "cannot write the output: " followed by `reason`.
    public var description: String { "cannot write the output: \(reason)" }
    /// Creates the error from the system's reason.
    public init(reason: String) { self.reason = reason }
}
