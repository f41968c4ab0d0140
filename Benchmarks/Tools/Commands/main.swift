import Foundation

// The `parlance` command measured from outside, as users run it:
//   - start-up: `parlance parse "MonkeyChat Bobo send more bananas"` on the demo context,
//     cold process each time (median and best of 15);
//   - `parlance batch` on a large file (the English corpus repeated, --lines, default
//     200,000) with --jobs 1 and 2: lines per second and peak memory (GNU time's %M).
// The outputs are checked: one record per input line, the first one the expected intent.
//   swift build -c release --product parlance && swift run -c release Commands [--lines N]

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(
    "parlance")
guard FileManager.default.isExecutableFile(atPath: binary.path) else {
    FileHandle.standardError.write(
        Data("build the command first: swift build -c release --product parlance (looked for \(binary.path))\n".utf8))
    exit(2)
}
var lines = 200_000
if let i = CommandLine.arguments.firstIndex(of: "--lines"), i + 1 < CommandLine.arguments.count, let n = Int(CommandLine.arguments[i + 1]) {
    lines = n
}

/// Runs the command; returns wall seconds, peak resident bytes (through GNU time, when
/// /usr/bin/time is there; else 0) and its output.
func run(_ arguments: [String], input: URL? = nil, output: URL? = nil) throws -> (seconds: Double, peakBytes: Int, stdout: Data) {
    let process = Process()
    let gnuTime = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-time-\(UUID().uuidString)")
    if gnuTime {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", report.path, binary.path] + arguments
    } else {
        process.executableURL = binary
        process.arguments = arguments
    }
    process.currentDirectoryURL = root
    let pipe = Pipe()
    if let output {
        FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
    } else {
        process.standardOutput = pipe
    }
    process.standardError = FileHandle.nullDevice
    if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
    let start = ContinuousClock.now
    try process.run()
    let data = output == nil ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
    process.waitUntilExit()
    let elapsed = ContinuousClock.now - start
    let kilobytes =
        gnuTime ? Int((try? String(contentsOf: report, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0 : 0
    try? FileManager.default.removeItem(at: report)
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, kilobytes * 1024, data)
}

// Start-up.
var startups: [Double] = []
for _ in 0..<15 {
    let (seconds, _, out) = try run(["parse", "MonkeyChat Bobo send more bananas"])
    precondition(String(decoding: out, as: UTF8.self).contains("\"sendMessage\""), "parse gave the wrong intent")
    startups.append(seconds)
}
startups.sort()
print("| measure | figure |")
print("|---|---:|")
print("| `parlance parse` on the demo context, cold process: median | \(Int(startups[7] * 1000)) ms |")
print("| … best of 15 | \(Int(startups[0] * 1000)) ms |")

// Batch.
let corpus = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Corpora/intents/en-US").path).filter {
    $0.hasSuffix(".jsonl")
}.sorted()
var corpusLines: [String] = []
for file in corpus {
    corpusLines += try String(contentsOf: root.appendingPathComponent("Corpora/intents/en-US/\(file)"), encoding: .utf8).split(
        separator: "\n"
    ).map(String.init)
}
let big = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-batch-\(lines).jsonl")
if !FileManager.default.fileExists(atPath: big.path) {
    var text = ""
    text.reserveCapacity(lines * 300)
    for n in 0..<lines { text += corpusLines[n % corpusLines.count] + "\n" }
    try text.write(to: big, atomically: true, encoding: .utf8)
}
let out = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-batch-out.jsonl")
for jobs in [1, 2] {
    let (seconds, peak, _) = try run(["batch", "--jobs", "\(jobs)", "--context", "Corpora/contexts/monkey.json", big.path], output: out)
    let produced = try String(contentsOf: out, encoding: .utf8).split(separator: "\n").count
    precondition(produced == lines, "batch wrote \(produced) lines for \(lines)")
    print(
        "| `parlance batch --jobs \(jobs)`, \(lines.formatted()) lines (\(big.lastPathComponent)) | \(Int(Double(lines) / seconds).formatted()) lines/s, peak \(peak > 0 ? "\(peak / 1_000_000) MB" : "(no /usr/bin/time)") |"
    )
}
try? FileManager.default.removeItem(at: out)
