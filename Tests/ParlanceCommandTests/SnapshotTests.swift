import Foundation
import Testing

/// The command's help and outputs as a user sees them: every case of `Snapshots/cases.json`
/// (the help of the command and of every subcommand, each subcommand on the built-in demo
/// context, bad input) is run and compared with `Snapshots/<name>.txt` — arguments, exit
/// status, standard output and standard error.
///
/// To re-record after an intended change: `PARLANCE_RECORD_SNAPSHOTS=1 swift test --filter
/// SnapshotTests`, review the diff, then run the tests again: a recording run always fails,
/// so that a re-recorded snapshot is never taken for a passing one.
@Suite struct SnapshotTests {
    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        var name: String
        /// `$SNAPSHOTS` is the snapshot folder, `$TMP` a fresh folder of the case's own.
        var arguments: [String]
        /// A file of the snapshot folder given as standard input (default: none).
        var stdin: String?

        var testDescription: String { name }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("cases.json")),
            let cases = try? JSONDecoder().decode([Case].self, from: data)
        else { return [] }
        return cases
    }()

    static var recording: Bool { ProcessInfo.processInfo.environment["PARLANCE_RECORD_SNAPSHOTS"] == "1" }

    @Test func everySubcommandHasItsHelpSnapshot() throws {
        #expect(Self.cases.count >= 25, "Snapshots/cases.json is missing or unreadable")
        let help = try CommandRun(["--help"]).stdout
        // The subcommands the root help lists, each with a `help <subcommand>` case.
        let listed =
            help.components(separatedBy: "SUBCOMMANDS:").last?.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first, !line.contains("See '")
                else { return nil }
                return String(word)
            } ?? []
        #expect(listed.count >= 10)
        let helped = Set(Self.cases.filter { $0.arguments.first == "help" }.compactMap { $0.arguments.dropFirst().first })
        #expect(Set(listed).subtracting(helped).isEmpty, "subcommands without a help snapshot: \(Set(listed).subtracting(helped).sorted())")
    }

    @Test(arguments: cases) func snapshot(_ test: Case) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-snapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let arguments = test.arguments.map {
            $0.replacingOccurrences(of: "$SNAPSHOTS", with: Self.folder.path).replacingOccurrences(of: "$TMP", with: scratch.path)
        }
        let run = try CommandRun(arguments, stdin: test.stdin.map { Self.folder.appendingPathComponent($0) })
        let rendered = Self.render(test, run, scratch: scratch)
        let file = Self.folder.appendingPathComponent("\(test.name).txt")
        if Self.recording {
            try Data(rendered.utf8).write(to: file)
            Issue.record("re-recorded \(file.lastPathComponent): review the diff, then run the tests without PARLANCE_RECORD_SNAPSHOTS")
            return
        }
        let recorded = try #require(
            try? String(contentsOf: file, encoding: .utf8),
            "no snapshot \(file.lastPathComponent): record it with PARLANCE_RECORD_SNAPSHOTS=1")
        #expect(rendered == recorded, "\(test.name) differs from its snapshot:\n\(rendered)")
    }

    /// The run as the snapshot file holds it, with the paths and the ICU version that differ
    /// from one machine to another written as `$SNAPSHOTS`, `$TMP`, `$REPO` and `<version>`.
    static func render(_ test: Case, _ run: CommandRun, scratch: URL) -> String {
        func clean(_ text: String) -> String {
            var text = text.replacingOccurrences(of: folder.path, with: "$SNAPSHOTS")
                .replacingOccurrences(of: scratch.path, with: "$TMP")
                .replacingOccurrences(of: HostileInputTests.repository.path, with: "$REPO")
            if let range = text.range(of: #"ICU [0-9]+(\.[0-9]+)*"#, options: .regularExpression) {
                text.replaceSubrange(range, with: "ICU <version>")
            }
            return text
        }
        let command = (["parlance"] + test.arguments).map { $0.contains(where: { " \"'!?,".contains($0) }) ? "'\($0)'" : $0 }.joined(
            separator: " ")
        return """
            $ \(command)\(test.stdin.map { " < \($0)" } ?? "")
            status: \(run.status)
            --- stdout
            \(clean(run.stdout))--- stderr
            \(clean(run.stderr))
            """
    }
}
