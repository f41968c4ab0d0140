import CZlib
import Foundation
import Testing

@testable import ParlanceContext
@testable import ParlanceEvaluation
@testable import ParlanceParser

/// Batch input: gzip or plain (told by content), plain-text mode, progress reports.
@Suite struct BatchInputTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("parlance-input-\(UUID().uuidString)-\(name)").path
    }

    static func writeGzip(_ bytes: [UInt8], to path: String) {
        let file = gzopen(path, "wb")!
        _ = bytes.withUnsafeBytes { gzwrite(file, $0.baseAddress, UInt32($0.count)) }
        gzclose(file)
    }

    func run(_ path: String, plainText: Bool, jobs: Int = 2) throws -> (
        lines: [[String: Any]], failures: Int, progress: [BatchRunner<BatchLineProcessor>.Progress]
    ) {
        let processor = BatchLineProcessor(parser: try IntentParser(context: .demo), defaultLocale: "en-US", plainText: plainText)
        var runner = BatchRunner(processor: processor, jobs: jobs)
        runner.chunkLines = 50
        var input = try BatchInput(path: path)
        let outPath = Self.temporary("out.jsonl")
        FileManager.default.createFile(atPath: outPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        var reports: [BatchRunner<BatchLineProcessor>.Progress] = []
        let failures = try runner.run(source: &input, output: out, progress: { reports.append($0) })
        try out.close()
        let lines = try Data(contentsOf: URL(fileURLWithPath: outPath)).split(separator: 0x0A).map {
            try JSONSerialization.jsonObject(with: Data($0)) as! [String: Any]
        }
        return (lines, failures, reports)
    }

    @Test(arguments: [true, false])
    func gzipAndPlainFilesGiveTheSameRecords(compressed: Bool) throws {
        var text = ""
        for n in 0..<230 { text += n == 100 ? "{oops\n" : #"{"id": "\#(n)", "text": "MonkeyChat Bobo send more bananas \#(n)"}"# + "\n" }
        let path = Self.temporary(compressed ? "in.jsonl.gz" : "in.jsonl")
        if compressed { Self.writeGzip(Array(text.utf8), to: path) } else { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
        let (lines, failures, progress) = try run(path, plainText: false)
        #expect(lines.count == 230)
        #expect(failures == 1)
        #expect((lines[100]["error"] as? [String: Any])?["code"] as? String == "bad_json")
        #expect(lines[229]["id"] as? String == "229")
        // Progress after every chunk of 50, ending with everything, and the size known.
        #expect(progress.map(\.lines) == [50, 100, 150, 200, 230])
        #expect(progress.last?.failures == 1)
        #expect(progress.last?.totalBytes != nil)
        #expect(progress.last?.consumedBytes == progress.last?.totalBytes)
    }

    @Test func plainTextLinesAreUtterancesNumberedFromOne() throws {
        let path = Self.temporary("in.txt")
        try Data("MonkeyChat Bobo send more bananas\n\nwhat's the weather\n".utf8 + [0xFF, 0x0A] + "Send a message with MonkeyChat".utf8)
            .write(to: URL(fileURLWithPath: path))
        let (lines, failures, _) = try run(path, plainText: true, jobs: 1)
        #expect(lines.map { $0["id"] as? String } == ["1", "2", "3", "4", "5"])
        #expect((lines[0]["intent"] as? [String: Any])?["name"] as? String == "sendMessage")
        #expect(lines[1]["intent"] is NSNull)  // an empty line: no intent, not an error
        #expect((lines[3]["error"] as? [String: Any])?["code"] as? String == "invalid_utf8")
        #expect(failures == 1)
        #expect(lines[4]["text"] as? String == "Send a message with MonkeyChat")
    }

    @Test func aCorruptGzipFileIsAClearError() throws {
        let path = Self.temporary("bad.jsonl.gz")
        var bytes: [UInt8] = []
        let good = Self.temporary("good.gz")
        Self.writeGzip(Array(String(repeating: #"{"id": "1", "text": "hi"}"# + "\n", count: 2000).utf8), to: good)
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: path))  // truncated
        var thrown: (any Error)?
        do { _ = try run(path, plainText: false) } catch { thrown = error }
        #expect(thrown.map { "\($0)".contains(path) && "\($0)".contains("truncated") } == true, "\(String(describing: thrown))")
        #expect { try BatchInput(path: Self.temporary("missing")) } throws: { "\($0)".hasPrefix("cannot read") }
    }

    @Test func aTruncatedGzipFileYieldsEveryCompleteLineThenTheError() throws {
        let good = Self.temporary("good.gz")
        let path = Self.temporary("cut.jsonl.gz")
        let text = (0..<3000).map { #"{"id": "\#($0)", "text": "MonkeyChat Bobo hi \#($0)"}"# + "\n" }.joined()
        Self.writeGzip(Array(text.utf8), to: good)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        try Data(bytes.prefix(bytes.count * 2 / 3)).write(to: URL(fileURLWithPath: path))
        // What zlib can recover of the truncated stream, whole lines only.
        let file = gzopen(path, "rb")!
        var recovered: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
            if n <= 0 { break }
            recovered += chunk.prefix(Int(n))
        }
        gzclose(file)
        let complete = recovered.filter { $0 == 0x0A }.count
        #expect(complete > 0 && complete < 3000)

        let processor = BatchLineProcessor(parser: try IntentParser(context: .demo), defaultLocale: "en-US")
        var runner = BatchRunner(processor: processor, jobs: 2)
        runner.chunkLines = 64
        var input = try BatchInput(path: path)
        let outPath = Self.temporary("out.jsonl")
        FileManager.default.createFile(atPath: outPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        #expect { _ = try runner.run(source: &input, output: out, progress: nil) } throws: {
            "\($0)".contains(path) && "\($0)".contains("truncated")
        }
        try out.close()
        let ids = try Data(contentsOf: URL(fileURLWithPath: outPath)).split(separator: 0x0A).map {
            (try JSONSerialization.jsonObject(with: Data($0)) as! [String: Any])["id"] as? String
        }
        #expect(ids == (0..<complete).map { String($0) })
    }

    @Test func concatenatedGzipMembersAreReadToTheEnd() throws {
        let a = Self.temporary("a.gz")
        let b = Self.temporary("b.gz")
        let path = Self.temporary("ab.jsonl.gz")
        Self.writeGzip(Array((0..<100).map { #"{"id": "a\#($0)", "text": "hi"}"# + "\n" }.joined().utf8), to: a)
        Self.writeGzip(Array((0..<100).map { #"{"id": "b\#($0)", "text": "hi"}"# + "\n" }.joined().utf8), to: b)
        try (Data(contentsOf: URL(fileURLWithPath: a)) + Data(contentsOf: URL(fileURLWithPath: b))).write(to: URL(fileURLWithPath: path))
        let (lines, _, _) = try run(path, plainText: false)
        #expect(lines.count == 200 && lines.last?["id"] as? String == "b99")
    }
}
