import Dispatch
import Foundation
import ParlanceContext
import ParlanceParser
import ParlanceText
import Synchronization

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
    ///
    /// With several jobs the chunks are pipelined: the workers parse one chunk while this
    /// thread reads the next and writes the one before, and each worker takes the chunk's next
    /// line as it becomes free (no worker waits for another's share at the chunk's end). With
    /// one job, everything happens on this thread, one chunk after the other.
    public func run<Source: ByteSource>(source input: inout Source, output: FileHandle, progress: ((Progress) -> Void)?) throws -> Int {
        var failures = 0
        var state = Progress()
        let started = ContinuousClock.now
        var pending: [[UInt8]] = []
        var lines = LineSplitter()
        let encoder = ParlanceJSON.encoder()
        // Lines handed to the workers so far, and the chunk they are on (not yet written).
        var dispatched = 0
        var inFlight: Chunk?
        func write(_ chunk: Chunk) throws {
            chunk.wait()
            var out = Data()
            for i in 0..<chunk.count {
                let (bytes, failed) = try chunk.results[i]!.get()
                if failed { failures += 1 }
                out.append(bytes)
                out.append(0x0A)
            }
            do { try output.write(contentsOf: out) } catch { throw BatchOutputError(reason: FileErrorText.describe(error)) }
            state.lines += chunk.count
            state.failures = failures
            let elapsed = ContinuousClock.now - started
            state.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            (state.consumedBytes, state.totalBytes) = input.position
            progress?(state)
        }
        func flush() throws {
            guard !pending.isEmpty else { return }
            let chunk = Chunk(lines: pending, first: dispatched + 1)
            dispatched += pending.count
            pending.removeAll(keepingCapacity: true)
            let workers = min(jobs, chunk.count)
            if workers == 1 {
                chunk.process(with: processor, encoder: encoder)
                try write(chunk)
                return
            }
            chunk.start(workers: workers, processor: processor)
            // The chunk before is written while this one is parsed.
            if let previous = inFlight {
                inFlight = nil
                try write(previous)
            }
            inFlight = chunk
        }
        func drain() throws {
            try flush()
            if let last = inFlight {
                inFlight = nil
                try write(last)
            }
        }
        while true {
            let bytes: [UInt8]
            do { bytes = try input.read(upTo: 1 << 20) } catch {
                // Damaged input: the complete lines read before the damage are written, then
                // the error; a last line without its end is not a record.
                try drain()
                throw error
            }
            if bytes.isEmpty { break }
            try lines.feed(bytes) { line in
                pending.append(line)
                if pending.count >= chunkLines { try flush() }
            }
        }
        if let last = lines.finish() { pending.append(last) }
        try drain()
        return failures
    }

    /// One chunk of lines and, in input order, their encoded records (or the error of
    /// encoding one). Its memory is released only once its workers are done, whatever way
    /// the run ends.
    private final class Chunk: @unchecked Sendable {
        let lines: [[UInt8]]
        /// The first line's number in the input (from 1).
        let first: Int
        let results: UnsafeMutableBufferPointer<Result<(bytes: Data, failed: Bool), Error>?>
        /// The next line a worker takes.
        private let next = Atomic<Int>(0)
        private let group = DispatchGroup()

        var count: Int { lines.count }

        init(lines: [[UInt8]], first: Int) {
            self.lines = lines
            self.first = first
            results = .allocate(capacity: lines.count)
            results.initialize(repeating: nil)
        }

        /// Parses and encodes lines until none is left (each line taken by one worker).
        func process(with processor: Processor, encoder: JSONEncoder) {
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < lines.count else { return }
                let record = processor.process(lines[i], number: first + i)
                results[i] = Result { (try processor.encode(record, with: encoder), processor.failed(record)) }
            }
        }

        /// `workers` workers on the chunk, in the background (`wait` for them).
        func start(workers: Int, processor: Processor) {
            for _ in 0..<workers {
                DispatchQueue.global().async(group: group) { self.process(with: processor, encoder: ParlanceJSON.encoder()) }
            }
        }

        func wait() { group.wait() }

        deinit {
            group.wait()
            // The records must be released before the memory is: deallocate alone would leak them.
            _ = results.deinitialize()
            results.deallocate()
        }
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
