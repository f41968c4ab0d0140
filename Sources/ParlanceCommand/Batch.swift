import ArgumentParser
import Foundation
import Parlance

/// `parlance batch`: JSON Lines in, one output record per line out, same order.
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Parse JSON Lines (records.md input records) into output records, one per line, in order.",
        discussion: """
            Reads FILE or standard input, plain or gzip-compressed (.jsonl or .jsonl.gz; told by content). \
            With --text each line is an utterance and its id is its line number. Memory stays flat: lines \
            are read, parsed on all cores and written in chunks. A line that cannot be read (bad JSON, \
            no "text", invalid UTF-8, longer than \(BatchLineProcessor.maxLineBytes) bytes, bad locale or \
            reference time) yields an output record with "intent": null and an "error", and the batch goes \
            on. On a terminal, a progress line (lines, lines/s, errors, ETA for files) is kept on standard \
            error. Exit status 1 when any line failed.
            """
    )

    @OptionGroup var contextOptions: ContextOptions

    @OptionGroup var resolveOptions: ResolveOptions

    @Option(name: .long, help: "Locale for records without one (and for --text lines).")
    var locale: String = "en-US"

    @Option(name: .long, help: "Parallel workers (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "Add each record's explanation.")
    var explain = false

    @Flag(name: .long, help: "Plain text input: one utterance per line (id = line number).")
    var text = false

    @Flag(name: .long, inversion: .prefixedNo, help: "Show the progress line on standard error (default: only when it is a terminal).")
    var progress: Bool?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Add to each record that `parlance eval` would measure its \"outcome\": the counts it adds to its locale's report (summed by `eval --from-outcomes`).",
            discussion: "Records with an \"expected\" frame in a language with a grammar; not with --text."))
    var outcomes = false

    @Argument(help: "Input file, .jsonl or .jsonl.gz (default or \"-\": standard input).")
    var file: String?

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        do { _ = try ParlanceLocale(locale) } catch { throw ValidationError(error.description) }
        if outcomes && text { throw ValidationError("--outcomes needs JSON records with \"expected\", not --text lines") }
    }

    func run() throws {
        let processor = BatchLineProcessor(
            parser: try resolveOptions.parser(contextOptions.load()), defaultLocale: locale, explain: explain, plainText: text)
        let failures = outcomes ? try run(OutcomeLineProcessor(batch: processor)) : try run(processor)
        if failures > 0 { throw ExitCode(ExitStatus.failed) }
    }

    /// Streams the input through the processor; returns how many lines failed.
    func run<Processor: LineProcessor>(_ processor: Processor) throws -> Int {
        var input: BatchInput
        do { input = try BatchInput(path: file) } catch { throw InputError(error.description) }
        let meter = ProgressLine(enabled: progress ?? (isatty(STDERR_FILENO) == 1))
        let failures = try BatchRunner(processor: processor, jobs: jobs).run(source: &input, output: .standardOutput) { meter.update($0) }
        meter.finish()
        return failures
    }
}

/// The progress line on standard error: redrawn in place at most twice a second.
final class ProgressLine {
    let enabled: Bool
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var last: ProgressState?

    /// What the line shows (the runner's progress, whatever its processor).
    struct ProgressState {
        let lines: Int
        let linesPerSecond: Double
        let failures: Int
        let eta: Double?
        let seconds: Double
    }

    init(enabled: Bool) { self.enabled = enabled }

    func update<Processor>(_ progress: BatchRunner<Processor>.Progress) {
        let p = ProgressState(
            lines: progress.lines, linesPerSecond: progress.linesPerSecond, failures: progress.failures, eta: progress.eta,
            seconds: progress.seconds)
        last = p
        guard enabled, ContinuousClock.now - lastDraw >= .milliseconds(500) else { return }
        lastDraw = ContinuousClock.now
        draw(p)
    }

    func finish() {
        guard enabled, let last else { return }
        draw(last)
        FileHandle.standardError.write(Data("\n".utf8))
    }

    private func draw(_ p: ProgressState) {
        var line = "\(p.lines.formatted()) lines · \(Int(p.linesPerSecond).formatted()) lines/s · \(p.failures.formatted()) errors"
        if let eta = p.eta { line += " · ETA \(Self.clock(eta))" }
        line += " · \(Self.clock(p.seconds)) elapsed"
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
