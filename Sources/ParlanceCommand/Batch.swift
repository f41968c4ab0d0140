import ArgumentParser
import Dispatch
import Foundation
import Parlance

/// `parlance batch`: JSON Lines in, one output record per line out, same order.
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Parse JSON Lines (records.md input records) into output records, one per line, in order.",
        discussion: """
            Reads FILE or standard input. A line that cannot be read (bad JSON, no "text", invalid UTF-8, \
            longer than \(BatchLineProcessor.maxLineBytes) bytes) yields an output record with "intent": null \
            and an "error", and the batch goes on. Exit status 1 when any line failed.
            """
    )

    @OptionGroup var contextOptions: ContextOptions

    @Option(name: .long, help: "Locale for records without one.")
    var locale: String = "en-US"

    @Option(name: .long, help: "Parallel workers (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "Add each record's explanation.")
    var explain = false

    @Argument(help: "Input file (default: standard input).")
    var file: String?

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        do { _ = try ParlanceLocale(locale) } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        let processor = BatchLineProcessor(parser: try IntentParser(context: contextOptions.load()), defaultLocale: locale, explain: explain)
        let input: FileHandle
        if let file {
            guard let handle = FileHandle(forReadingAtPath: file) else { throw ValidationError("cannot read '\(file)'") }
            input = handle
        } else {
            input = .standardInput
        }
        let failures = try BatchRunner(processor: processor, jobs: jobs).run(input: input, output: .standardOutput)
        if failures > 0 { throw ExitCode(1) }
    }
}

/// Streams lines through the processor in chunks: memory stays bounded by the chunk size,
/// output keeps input order, and each chunk is spread over `jobs` workers.
struct BatchRunner {
    let processor: BatchLineProcessor
    let jobs: Int
    var chunkLines = 2048

    /// Returns how many lines failed.
    func run(input: FileHandle, output: FileHandle) throws -> Int {
        var failures = 0
        var pending: [[UInt8]] = []
        var carry: [UInt8] = []
        let encoder = ParlanceJSON.encoder()
        func flush() throws {
            guard !pending.isEmpty else { return }
            let lines = pending
            let results = UnsafeMutableBufferPointer<OutputRecord?>.allocate(capacity: lines.count)
            results.initialize(repeating: nil)
            defer { results.deallocate() }
            let workers = min(jobs, lines.count)
            let base = results.baseAddress!
            let box = UnsafeSendable(base)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                var i = worker
                while i < lines.count {
                    box.pointer[i] = processor.process(lines[i])
                    i += workers
                }
            }
            var out = Data()
            for i in 0..<lines.count {
                let record = results[i]!
                if record.error != nil { failures += 1 }
                out.append(try encoder.encode(record))
                out.append(0x0A)
            }
            try output.write(contentsOf: out)
            pending.removeAll(keepingCapacity: true)
        }
        while true {
            let data = try input.read(upToCount: 1 << 20) ?? Data()
            if data.isEmpty { break }
            var start = 0
            let bytes = [UInt8](data)
            for (i, byte) in bytes.enumerated() where byte == 0x0A {
                var line = carry + bytes[start..<i]
                carry.removeAll(keepingCapacity: true)
                if line.last == 0x0D { line.removeLast() }
                pending.append(line)
                start = i + 1
                if pending.count >= chunkLines { try flush() }
            }
            carry += bytes[start...]
        }
        if !carry.isEmpty { pending.append(carry.last == 0x0D ? Array(carry.dropLast()) : carry) }
        try flush()
        return failures
    }
}

struct UnsafeSendable<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}
