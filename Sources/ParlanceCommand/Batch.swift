import ArgumentParser
import Foundation
import Parlance

/// `parlance batch`: JSON Lines in, one output record per line out, same order.
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Parse JSON Lines (records.md input records) into output records, one per line, in order.",
        discussion: """
            Reads FILE or standard input. A line that cannot be read (bad JSON, no "text", invalid UTF-8, \
            longer than \(BatchLineProcessor.maxLineBytes) bytes) yields an output record with "intent": null \
            and an "error", and the batch goes on. Exit status 1 when any line failed.
            """
    )

    @OptionGroup var contextOptions: ContextOptions

    @OptionGroup var resolveOptions: ResolveOptions

    @Option(name: .long, help: "Locale for records without one.")
    var locale: String = "en-US"

    @Option(name: .long, help: "Parallel workers (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "Add each record's explanation.")
    var explain = false

    @Argument(help: "Input file (default: standard input).")
    var file: String?

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        do { _ = try ParlanceLocale(locale) } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        let processor = BatchLineProcessor(parser: try resolveOptions.parser(contextOptions.load()), defaultLocale: locale, explain: explain)
        let failures = try BatchRunner(processor: processor, jobs: jobs).run(input: openInput(file), output: .standardOutput)
        if failures > 0 { throw ExitCode(1) }
    }
}

