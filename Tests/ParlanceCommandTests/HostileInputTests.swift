import Foundation
import Testing

/// The hostile-input corpus (`Hostile/cases.json` and the files beside it) run through the
/// `parlance` command itself: every broken kind of input each command reads — batch lines,
/// resolve queries, context files, vocabulary files, donation journals, corpora, gzip
/// streams, flags, an output that cannot be written — with the exit status, the error
/// code of each output record and the words the error must say.
@Suite struct HostileInputTests {
    /// One case of `cases.json`. In `arguments`, `$HOSTILE` is the corpus folder, `$REPO` the
    /// package's root and `$TMP` a fresh folder of the case's own (with an empty `empty/`).
    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        /// A file of the corpus folder given as standard input (default: none).
        var stdin: String?
        /// Where standard output goes instead of being read (`/dev/full`).
        var stdout: String?
        var status: Int32
        /// The error code of each output line (`error.code`, null for none), in order.
        var errors: [String?]?
        /// How many output lines.
        var lines: Int?
        var stderr: [String]?
        var notInStderr: [String]?
        var stdoutContains: [String]?

        var testDescription: String { name }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Hostile")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("cases.json")),
            let cases = try? JSONDecoder().decode([Case].self, from: data)
        else { return [] }
        return cases
    }()

    @Test func theCorpusIsThere() {
        #expect(Self.cases.count >= 30, "Hostile/cases.json is missing or unreadable")
    }

    @Test(arguments: cases) func hostileInput(_ test: Case) throws {
        let run = try CommandRun(test.arguments, stdin: test.stdin.map { Self.folder.appendingPathComponent($0) }, stdout: test.stdout)
        #expect(run.status == test.status, "exit status; standard error: \(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: true)
        if let expected = test.lines { #expect(lines.count == expected) }
        if let expected = test.errors {
            #expect(lines.count == expected.count, "one record per input line")
            let codes: [String?] = lines.map { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    return "(not a JSON object)"
                }
                return (object["error"] as? [String: Any])?["code"] as? String
            }
            #expect(codes == expected)
        }
        for words in test.stderr ?? [] { #expect(run.stderr.contains(words), "standard error says '\(words)': \(run.stderr)") }
        for words in test.notInStderr ?? [] {
            #expect(!run.stderr.contains(words), "standard error does not say '\(words)': \(run.stderr)")
        }
        for words in test.stdoutContains ?? [] { #expect(run.stdout.contains(words), "standard output says '\(words)'") }
    }
}

/// One run of the built `parlance`, its output in files (no pipe to fill up).
struct CommandRun {
    let status: Int32
    let stdout: String
    let stderr: String

    /// The `parlance` binary beside the test bundle (the products folder).
    static var binary: URL {
        var folder = Bundle.main.bundleURL
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        return folder.appendingPathComponent("parlance")
    }

    /// `environment` is added to the test process's own.
    init(_ arguments: [String], stdin: URL? = nil, stdout: String? = nil, environment: [String: String] = [:]) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("empty"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = Self.binary
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.arguments = arguments.map {
            $0.replacingOccurrences(of: "$HOSTILE", with: HostileInputTests.folder.path)
                .replacingOccurrences(of: "$REPO", with: HostileInputTests.repository.path)
                .replacingOccurrences(of: "$TMP", with: scratch.path)
        }
        let out = scratch.appendingPathComponent("stdout")
        let err = scratch.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle =
            try stdout.map { path in try #require(FileHandle(forWritingAtPath: path), "cannot open \(path)") }
            ?? FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        self.status = process.terminationStatus
        self.stdout = String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self)
        self.stderr = String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self)
    }
}
