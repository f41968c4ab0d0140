import Foundation
import Testing

@testable import ParlanceContext
@testable import ParlanceEvaluation
@testable import ParlanceParser
@testable import ParlanceResolver

/// `parlance resolve` over JSON Lines: one record per line, in order, errors per line.
@Suite struct ResolveBatchTests {
    @Test(arguments: [1, 2])
    func everyLineGetsOneRecordInOrder(jobs: Int) throws {
        let processor = ResolveLineProcessor(
            resolver: Resolver(context: .demo), defaultLocale: "en-US", defaultApp: "MonkeyChat", defaultType: "contactName")
        var runner = BatchRunner(processor: processor, jobs: jobs)
        runner.chunkLines = 16
        var input = ""
        for n in 0..<100 {
            switch n {
            case 7: input += "{broken\n"
            case 30: input += #"{"id": "30"}"# + "\n"
            case 55: input += #"{"id": "55", "query": "Bobo", "app": "Nope"}"# + "\n"
            case 70: input += #"{"id": "70", "query": "Bananarific", "app": "MonkeyFit", "type": "workoutActivityName"}"# + "\n"
            default: input += #"{"id": "\#(n)", "query": "\#(n % 2 == 0 ? "Bobo the Grate" : "bobo jr")"}"# + "\n"
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-resolve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inURL = directory.appendingPathComponent("in.jsonl")
        let outURL = directory.appendingPathComponent("out.jsonl")
        try Data(input.utf8).write(to: inURL)
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let failures = try runner.run(input: try FileHandle(forReadingFrom: inURL), output: out)
        try out.close()
        let lines = try Data(contentsOf: outURL).split(separator: 0x0A).map {
            try JSONSerialization.jsonObject(with: Data($0)) as! [String: Any]
        }
        #expect(lines.count == 100)
        #expect(failures == 3)
        for (n, line) in lines.enumerated() {
            let error = (line["error"] as? [String: Any])?["code"] as? String
            switch n {
            case 7: #expect(error == "bad_json")
            case 30: #expect(error == "missing_query" && line["id"] as? String == "30")
            case 55: #expect(error == "resolve_failed")
            case 70:
                let resolution = line["resolution"] as? [String: Any]
                #expect(resolution?["kind"] as? String == "success")
            default:
                #expect(line["id"] as? String == "\(n)")
                let resolution = try #require(line["resolution"] as? [String: Any])
                #expect(resolution["kind"] as? String == (n % 2 == 0 ? "confirmationRequired" : "success"))
                let items = resolution["items"] as? [[String: Any]]
                #expect(items?.first?["id"] as? String == (n % 2 == 0 ? "bobo-great" : "bobo-jr"))
            }
        }
    }
}
