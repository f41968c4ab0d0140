import Foundation
import Testing

@testable import ParlanceText

/// `parlance tokens` output for `Golden/inputs.jsonl`, compared with `Golden/<name>.json`.
///
/// To re-record after an intended change: `PARLANCE_RECORD_GOLDEN=1 swift test --filter Golden`,
/// review the diff, and run the tests again. A recording run always fails, so a golden file
/// can never be re-recorded and pass in the same run.
@Suite struct GoldenTests {
    static let recording = ProcessInfo.processInfo.environment["PARLANCE_RECORD_GOLDEN"] == "1"

    @Test func tokensOutputMatchesGoldenFiles() throws {
        let inputs = try String(contentsOf: CaseFiles.golden.appendingPathComponent("inputs.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONDecoder().decode(Input.self, from: Data($0.utf8)) }
        #expect(inputs.count >= 10)
        var recorded: [String] = []
        for input in inputs {
            let analysis = try TextAnalyzer.shared.analyze(
                input.text, locale: ParlanceLocale(input.locale), referenceTime: ReferenceTime(iso8601: CaseFiles.referenceTime))
            let output = try ParlanceJSON.line(analysis, pretty: true) + "\n"
            let file = CaseFiles.golden.appendingPathComponent("\(input.name).json")
            if Self.recording {
                try output.write(to: file, atomically: true, encoding: .utf8)
                recorded.append(input.name)
                continue
            }
            let expected = try String(contentsOf: file, encoding: .utf8)
            #expect(output == expected, "Golden/\(input.name).json differs from the output for '\(input.text)'")
        }
        if Self.recording {
            Issue.record(
                "re-recorded \(recorded.count) golden files: review `git diff Tests/ParlanceTextTests/Golden`, then run the tests without PARLANCE_RECORD_GOLDEN"
            )
        }
    }

    struct Input: Decodable {
        var name: String
        var locale: String
        var text: String
    }
}
