import Foundation
import Testing

@testable import ParlanceEvaluation
@testable import ParlanceParser

/// Bad input gets a clear error and loses nothing: one output line per input line, in order.
@Suite struct BatchRunnerTests {
    func run(_ input: [UInt8], jobs: Int, chunk: Int = 2048) throws -> (lines: [[String: Any]], failures: Int) {
        let processor = BatchLineProcessor(parser: try IntentParser(context: .demo), defaultLocale: "en-US")
        var runner = BatchRunner(processor: processor, jobs: jobs)
        runner.chunkLines = chunk
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputURL = directory.appendingPathComponent("in.jsonl"), outputURL = directory.appendingPathComponent("out.jsonl")
        try Data(input).write(to: inputURL)
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let inHandle = try FileHandle(forReadingFrom: inputURL), outHandle = try FileHandle(forWritingTo: outputURL)
        let failures = try runner.run(input: inHandle, output: outHandle)
        try outHandle.close()
        let output = try Data(contentsOf: outputURL)
        let lines = output.split(separator: 0x0A).map { try! JSONSerialization.jsonObject(with: Data($0)) as! [String: Any] }
        return (lines, failures)
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
            default: input += Array(#"{"id": "\#(n)", "text": "MonkeyChat Bobo send more bananas \#(n)", "locale": "en-US"}"#.utf8) + [0x0A]
            }
        }
        input += Array(String(repeating: "x", count: BatchLineProcessor.maxLineBytes + 10).utf8)  // a last, too long line without newline
        let (lines, failures) = try run(input, jobs: jobs, chunk: 64)
        #expect(lines.count == 301)
        #expect(failures == 5)
        let codes = lines.enumerated().compactMap { n, line in (line["error"] as? [String: Any]).map { (n, $0["code"] as! String) } }
        #expect(codes.map(\.0) == [17, 101, 202, 250, 300])
        #expect(codes.map(\.1) == ["bad_json", "missing_text", "invalid_utf8", "bad_locale", "too_long"])
        for (n, line) in lines.enumerated() where ![17, 101, 202, 250, 300].contains(n) {
            #expect(line["id"] as? String == "\(n)")
            #expect((line["intent"] as? [String: Any])?["name"] as? String == "sendMessage")
        }
    }
}
