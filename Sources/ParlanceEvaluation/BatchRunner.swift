import Dispatch
import Foundation
import ParlanceParser
import ParlanceText

/// Streams lines through the processor in chunks: memory stays bounded by the chunk size,
/// output keeps input order, and each chunk is spread over `jobs` workers.
public struct BatchRunner<Processor: LineProcessor>: Sendable {
    public let processor: Processor
    public let jobs: Int
    /// Lines read and parsed together; memory is bounded by this, whatever the input size.
    public var chunkLines = 2048

    public init(processor: Processor, jobs: Int) {
        self.processor = processor
        self.jobs = max(1, jobs)
    }

    /// Returns how many lines failed.
    public func run(input: FileHandle, output: FileHandle) throws -> Int {
        var failures = 0
        var pending: [[UInt8]] = []
        var carry: [UInt8] = []
        let encoder = ParlanceJSON.encoder()
        func flush() throws {
            guard !pending.isEmpty else { return }
            let lines = pending
            let results = UnsafeMutableBufferPointer<Processor.Record?>.allocate(capacity: lines.count)
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
                if processor.failed(record) { failures += 1 }
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
