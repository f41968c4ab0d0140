import Foundation
import ParlanceICU
import Testing

@testable import ParlanceContext
@testable import ParlanceEvaluation
@testable import ParlanceParser

/// Bad input gets a clear error and loses nothing: one output line per input line, in order.
@Suite struct BatchRunnerTests {
    func run(_ input: [UInt8], jobs: Int, chunk: Int = 2048, workBudget: Int = IntentParser.defaultWorkBudget) throws -> (
        lines: [[String: Any]], failures: Int
    ) {
        let processor = BatchLineProcessor(parser: try IntentParser(context: .demo, workBudget: workBudget), defaultLocale: "en-US")
        var runner = BatchRunner(processor: processor, jobs: jobs)
        runner.chunkLines = chunk
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputURL = directory.appendingPathComponent("in.jsonl")
        let outputURL = directory.appendingPathComponent("out.jsonl")
        try Data(input).write(to: inputURL)
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let inHandle = try FileHandle(forReadingFrom: inputURL)
        let outHandle = try FileHandle(forWritingTo: outputURL)
        let failures = try runner.run(input: inHandle, output: outHandle)
        try outHandle.close()
        let output = try Data(contentsOf: outputURL)
        let lines = output.split(separator: 0x0A).map { try! JSONSerialization.jsonObject(with: Data($0)) as! [String: Any] }
        return (lines, failures)
    }

    /// A line over the work budget is the error record too_slow, and the lines after it are
    /// parsed as usual (issue 17). The budget counts matcher steps: a short request takes a
    /// few hundred, a request said twenty times over in one line thousands.
    @Test func aLineOverTheWorkBudgetIsTooSlowAndTheBatchGoesOn() throws {
        let long = String(repeating: "send a message to Bobo saying hi, ", count: 18)
        let lines = [
            #"{"id": "a", "text": "call Bobo"}"#, #"{"id": "b", "text": "\#(long)"}"#,
            #"{"id": "c", "text": "send a message to Bobo saying hi"}"#
        ]
        let input = Array(lines.joined(separator: "\n").utf8) + [0x0A]
        // (A budget the short lines stay well under and the long one well over: the matcher
        // drops matches that cannot end or read on, so the long line takes between 1,500 and 2,000 steps, a short one under 300.)
        let (tight, failures) = try run(input, jobs: 2, workBudget: 1_000)
        #expect(failures == 1)
        #expect(tight.map { $0["id"] as? String } == ["a", "b", "c"])
        #expect(tight.map { ($0["error"] as? [String: Any])?["code"] as? String } == [nil, "too_slow", nil])
        #expect(((tight[1]["error"] as? [String: Any])?["message"] as? String)?.contains("1000 matcher steps") == true)
        #expect((tight[2]["intent"] as? [String: Any])?["name"] as? String == "sendMessage")
        // The default budget reads the same line.
        let (roomy, none) = try run(input, jobs: 1)
        #expect(none == 0)
        #expect(roomy[1]["error"] is NSNull)
    }

    @Test func aFieldOfTheWrongTypeKeepsTheRecordsID() throws {
        let input =
            Array(#"{"id": "k7", "text": 42}"#.utf8) + [0x0A] + Array(#"{"id": 8, "text": "hi", "reference_time": true}"#.utf8) + [0x0A]
        let (lines, failures) = try run(input, jobs: 1)
        #expect(failures == 2)
        #expect(lines.map { $0["id"] as? String } == ["k7", "8"])
        #expect(lines.map { ($0["error"] as? [String: Any])?["code"] as? String } == ["bad_field", "bad_field"])
        #expect(((lines[1]["error"] as? [String: Any])?["message"] as? String)?.contains("reference_time") == true)
    }

    @Test(arguments: [1, 2, 4])
    func brokenLinesYieldErrorRecordsInOrder(jobs: Int) throws {
        var input: [UInt8] = []
        for n in 0..<300 {
            switch n {
            case 17: input += Array("{not json\n".utf8)
            case 101: input += Array(#"{"id": "101", "locale": "en"}"#.utf8) + [0x0A]
            case 202: input += [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D, 0x0A]  // invalid UTF-8
            case 250: input += Array(#"{"id": "250", "text": "hi", "locale": "xx-YY"}"#.utf8) + [0x0A]
            case 275: input += Array(String(repeating: "[", count: 513).utf8) + [0x0A]  // where Foundation's decoder traps
            default: input += Array(#"{"id": "\#(n)", "text": "MonkeyChat Bobo send more bananas \#(n)", "locale": "en-US"}"#.utf8) + [0x0A]
            }
        }
        input += Array(String(repeating: "x", count: BatchLineProcessor.maxLineBytes + 10).utf8)  // a last, too long line without newline
        let (lines, failures) = try run(input, jobs: jobs, chunk: 64)
        #expect(lines.count == 301)
        #expect(failures == 6)
        let codes = lines.enumerated().compactMap { n, line in (line["error"] as? [String: Any]).map { (n, $0["code"] as! String) } }
        #expect(codes.map(\.0) == [17, 101, 202, 250, 275, 300])
        #expect(codes.map(\.1) == ["bad_json", "missing_text", "invalid_utf8", "bad_locale", "too_deep", "too_long"])
        for (n, line) in lines.enumerated() where ![17, 101, 202, 250, 275, 300].contains(n) {
            #expect(line["id"] as? String == "\(n)")
            #expect((line["intent"] as? [String: Any])?["name"] as? String == "sendMessage")
        }
    }
}

/// Records made by a batch are released once written: memory stays flat over any input.
@Suite struct BatchMemoryTests {
    final class Tracked: Sendable {
        // `Locked`, a pthread mutex ThreadSanitizer sees (it cannot see Synchronization.Mutex's
        // futex, and reported the counter as a race).
        static let alive = Locked<Int>(0)
        init() { Self.alive.withLock { $0 += 1 } }
        deinit { Self.alive.withLock { $0 -= 1 } }
    }

    struct Record: Encodable {
        let tracked: Tracked
        let n: Int
        func encode(to encoder: any Encoder) throws { try n.encode(to: encoder) }
    }

    struct Processor: LineProcessor {
        func process(_ line: [UInt8]) -> Record { Record(tracked: Tracked(), n: line.count) }
        func failed(_ record: Record) -> Bool { false }
    }

    @Test func everyRecordIsReleased() throws {
        var runner = BatchRunner(processor: Processor(), jobs: 2)
        runner.chunkLines = 100
        var source = MemorySource(bytes: Array(String(repeating: "line\n", count: 1_000).utf8))
        let out = FileHandle(forWritingAtPath: "/dev/null")!
        var peak = 0
        _ = try runner.run(source: &source, output: out, progress: { _ in peak = max(peak, Tracked.alive.withLock { $0 }) })
        #expect(Tracked.alive.withLock { $0 } == 0)
        #expect(peak <= 100, "records of earlier chunks still alive: \(peak)")
    }

    struct MemorySource: ByteSource {
        var bytes: [UInt8]
        mutating func read(upTo count: Int) throws -> [UInt8] {
            let chunk = Array(bytes.prefix(count))
            bytes.removeFirst(chunk.count)
            return chunk
        }
        var position: (consumed: Int, total: Int?) { (0, nil) }
    }
}
