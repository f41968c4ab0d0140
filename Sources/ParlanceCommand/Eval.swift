import ArgumentParser
import Foundation
import Parlance

/// `parlance eval`: accuracy on annotated corpora, with reports.
struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure a parse (and resolution) run on annotated corpora; write report.json, report.md, report.html and errors.jsonl.",
        discussion: """
            Reads every .jsonl file under the given files and folders (records.md input records with \
            "expected"), parses them (resolving names unless --no-resolve), prints a summary per locale and \
            writes the reports to --out: per locale, domain, intent and parameter precision, recall and F1, \
            out-of-domain rejection and false rejection, app accuracy, exact frames, resolution accuracy per \
            kind, the worst confusions, 20 sample errors per locale, and the settings and SHA-256 of every \
            input; and errors.jsonl, every wrong record with what is wrong ("intent", "rejected", \
            "accepted out of domain", "app", "parameter <name>: missing|extra|wrong", "resolution", "error"). Definitions: EvaluationReport in Sources/ParlanceEvaluation. Lines marked "annotation": \
            "intent-only" count for intents only. --aside keeps only the fixed tenth of every source \
            that `parlance train` keeps aside (never trained on; see FallbackTrainer.isAside). --baseline compares with an earlier report.json (regressions first); \
            --min-intent-accuracy exits with status 1 when a locale is below it. \
            --from-outcomes FILE reads, instead of corpora, outcome lines (`batch --outcomes`: \
            {"locale", "counts"}), sums them per locale and writes the report eval would have written \
            for those lines, without sample errors or errors.jsonl.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @OptionGroup var contextOptions: ContextOptions

    @OptionGroup var resolveOptions: ResolveOptions

    @Option(name: .long, help: "Folder for report.json, report.md and report.html.")
    var out: String = "parlance-eval"

    @Option(name: .long, help: "An earlier report.json to compare with.")
    var baseline: String?

    @Option(name: .long, help: "Exit with status 1 when any locale's intent accuracy is below this (0–1).")
    var minIntentAccuracy: Double?

    @Option(
        name: .long,
        help: "A JSON file of floors per locale (like Corpora/thresholds.json): exit with status 1 when a metric is below its floor.")
    var thresholds: String?

    @Option(name: .long, help: "What to print: table (Markdown summary) or json (the whole report).")
    var format: Format = .table

    @Option(name: .long, help: "Parallel workers (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: "Only these languages (comma-separated, e.g. en,es); default: all with a grammar.")
    var languages: String?

    @Flag(
        name: [.customLong("aside"), .customLong("held-out")],
        help: "Only the records `parlance train` keeps aside (a fixed tenth of every source).")
    var heldOut = false

    @Flag(name: .long, help: "Also print the sample errors.")
    var showErrors = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Outcome lines to sum instead of parsing corpora (JSON Lines of {\"locale\", \"counts\"}, as `batch --outcomes` writes them under \"outcome\"; \"-\" for standard input).",
            valueName: "file"))
    var fromOutcomes: String?

    @Argument(help: "Corpus folders or files.")
    var corpora: [String] = []

    /// One JSON line per wrong record, locales in order, records in corpus order:
    /// {"id", "locale", "text", "expected", "predicted", "what"}.
    static func errorLines(_ report: EvaluationReport) throws -> Data {
        struct Line: Encodable {
            let id: String
            let locale: String
            let text: String
            let expected: String
            let predicted: String
            let what: [String]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = Data()
        for (tag, l) in report.locales.sorted(by: { $0.key < $1.key }) {
            for e in l.allErrors {
                data.append(
                    try encoder.encode(
                        Line(id: e.id, locale: tag, text: e.text, expected: e.expected, predicted: e.predicted, what: e.what ?? [])))
                data.append(0x0A)
            }
        }
        return data
    }

    // Exit statuses (`ExitStatus`): 0 measured and every gate passed; 1 a gate failed; 64 a
    // usage or input error (a bad option, an unreadable corpus, nothing to measure); 74 the
    // reports or the summary could not be written.

    func validate() throws {
        if let minIntentAccuracy, !(0...1).contains(minIntentAccuracy) {
            throw ValidationError("--min-intent-accuracy must be between 0 and 1")
        }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard !out.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--out must name a folder") }
        if fromOutcomes != nil {
            guard corpora.isEmpty else { throw ValidationError("--from-outcomes reads outcomes instead of corpora: give one or the other") }
            guard !heldOut, languages == nil else {
                throw ValidationError(
                    "--aside and --languages choose corpus lines; with --from-outcomes the lines were chosen when the outcomes were written"
                )
            }
        } else if corpora.isEmpty {
            throw ValidationError("give corpus folders or files (or --from-outcomes FILE)")
        }
        if let languages {
            let unknown = languages.split(separator: ",").map(String.init).filter { !IntentParser.supportedLanguages.contains($0) }
            guard unknown.isEmpty else {
                throw ValidationError(
                    "--languages: no grammar for \(unknown.joined(separator: ", ")) (languages with one: \(IntentParser.supportedLanguages.joined(separator: ", ")))"
                )
            }
        }
    }

    func run() throws {
        let baselineReport: EvaluationReport?
        if let baseline {
            do {
                baselineReport = try JSONGuard.decode(EvaluationReport.self, from: Data(contentsOf: URL(fileURLWithPath: baseline)))
            } catch {
                throw InputError("cannot read the baseline report '\(baseline)': \(error)")
            }
        } else {
            baselineReport = nil
        }
        // The floors are read before the run: a broken file is told at once, not after it.
        var floors: [String: EvaluationReport.Floors]?
        if let thresholds {
            do {
                floors = try JSONGuard.decode(
                    [String: EvaluationReport.Floors].self, from: Data(contentsOf: URL(fileURLWithPath: thresholds)))
            } catch let error as DecodingError {
                throw InputError("cannot read the thresholds '\(thresholds)': \(LanguageResources.describe(error))")
            } catch {
                throw InputError("cannot read the thresholds '\(thresholds)': \(FileErrorText.describe(error))")
            }
        }
        let wanted = Set((languages ?? IntentParser.supportedLanguages.joined(separator: ",")).split(separator: ",").map(String.init))
        var options = [
            "resolve": "\(resolveOptions.resolve)", "heldOut": "\(heldOut)", "languages": wanted.sorted().joined(separator: ","),
            "modelDirectory": ProcessInfo.processInfo.environment["PARLANCE_MODEL_DIR"] ?? "built-in",
            "grammarDirectory": ProcessInfo.processInfo.environment["PARLANCE_GRAMMAR_DIR"] ?? "built-in"
        ]
        var report: EvaluationReport
        var failures = 0
        if let fromOutcomes {
            options["fromOutcomes"] = fromOutcomes
            report = EvaluationReport(locales: try summedOutcomes(fromOutcomes), settings: try settings(corpora: [], options: options))
        } else {
            (report, failures) = try measure(wanted: wanted, options: options)
        }
        if let baselineReport { report.compare(with: baselineReport) }
        try write(report, failures: failures, floors: floors)
    }

    /// The outcome lines of a file (or standard input) summed per locale.
    func summedOutcomes(_ path: String) throws -> [String: EvaluationReport.LocaleReport] {
        let data: Data
        do {
            data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw InputError("cannot read the outcomes '\(path)': \(FileErrorText.describe(error))")
        }
        let locales: [String: EvaluationReport.LocaleReport]
        locales = try ReportOutcome.sum(jsonLines: data, file: path)
        guard !locales.isEmpty else { throw InputError("nothing to measure: no outcome in '\(path)'") }
        return locales
    }

    func settings(corpora files: [String], options: [String: String]) throws -> EvaluationReport.Settings {
        EvaluationReport.Settings(
            parlanceVersion: parlanceVersion, icuVersion: Parlance.icuVersion,
            date: ISO8601DateFormatter().string(from: Date()),
            context: try contextOptions.context.map { try EvaluationReport.FileChecksum(path: $0) },
            corpora: try files.map { try EvaluationReport.FileChecksum(path: $0) },
            options: options)
    }

    /// Parses the corpora's records and measures them; also returns how many failed.
    func measure(wanted: Set<String>, options: [String: String]) throws -> (EvaluationReport, failures: Int) {
        let parser = try resolveOptions.parser(contextOptions.load())
        var records: [AnnotatedRecord] = []
        // Languages of records left out for want of an intent grammar, said when nothing is left.
        var skipped = Set<String>()
        let files: [String]
        files = try CorpusFiles.list(corpora)
        for file in files {
            let loaded: [AnnotatedRecord]
            loaded = try AnnotatedRecord.load(file)
            for record in loaded {
                // A record no language can read is an error, not a record left out.
                let language: String
                do { language = try ParlanceLocale(record.locale ?? "en").language } catch {
                    throw InputError("\(file): record \(record.id): \(error)")
                }
                if wanted.contains(language), !heldOut || FallbackTrainer.isAside(record.id) {
                    records.append(record)
                } else if !IntentParser.supportedLanguages.contains(language) {
                    skipped.insert(language)
                }
            }
        }
        // A gate with nothing to measure is no pass: no annotated record is an error.
        guard !records.isEmpty else {
            let why =
                skipped.isEmpty
                ? ""
                : " (records in \(skipped.sorted().joined(separator: ", ")), which \(skipped.count == 1 ? "has" : "have") no intent grammar, are not measured)"
            throw InputError(
                "nothing to measure: no annotated record in \(corpora.joined(separator: ", "))"
                    + (languages.map { " for --languages \($0)" } ?? "") + (heldOut ? " kept aside" : "") + why)
        }
        let outcomes = CorpusRun(parser: parser).parse(records, jobs: jobs)
        let report = EvaluationReport(outcomes: outcomes, settings: try settings(corpora: files, options: options))
        return (report, outcomes.filter { $0.error != nil }.count)
    }

    /// Writes the reports, prints the summary and applies the gates.
    func write(_ report: EvaluationReport, failures: Int, floors: [String: EvaluationReport.Floors]?) throws {
        let folder = URL(fileURLWithPath: out)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Reports that cannot be written, or a summary standard output cannot take, fail the
        // run with the I/O exit status (74), never a silent 0.
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try encoder.encode(report).write(to: folder.appendingPathComponent("report.json"))
            try Data(report.markdown().utf8).write(to: folder.appendingPathComponent("report.md"))
            try Data(report.html().utf8).write(to: folder.appendingPathComponent("report.html"))
            // Summed outcomes have no errors to list: an errors.jsonl would say none was wrong.
            if fromOutcomes == nil { try Self.errorLines(report).write(to: folder.appendingPathComponent("errors.jsonl")) }
        } catch {
            FileHandle.standardError.write(Data("Error: cannot write the reports to '\(out)': \(FileErrorText.describe(error))\n".utf8))
            throw ExitCode(ExitStatus.output)
        }
        var summary: String
        switch format {
        case .json:
            summary = String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        case .table:
            summary = report.markdownSummary().joined(separator: "\n") + "\n"
            if showErrors {
                for (tag, l) in report.locales.sorted(by: { $0.key < $1.key }) {
                    for e in l.errors {
                        summary += "- \(tag) \(e.id): \(e.text)\n    expected: \(e.expected)\n    got:      \(e.predicted)\n"
                    }
                }
            }
        }
        do { try FileHandle.standardOutput.write(contentsOf: Data(summary.utf8)) } catch {
            throw BatchOutputError(reason: FileErrorText.describe(error))
        }
        FileHandle.standardError.write(
            Data("reports written to \(folder.path)/report.{json,md,html}\(fromOutcomes == nil ? " and errors.jsonl" : "")\n".utf8))
        if failures > 0 { FileHandle.standardError.write(Data("\(failures) records could not be parsed\n".utf8)) }
        var failed = false
        if let minIntentAccuracy {
            let below = report.locales(below: minIntentAccuracy)
            if !below.isEmpty {
                FileHandle.standardError.write(
                    Data("intent accuracy below \(minIntentAccuracy) in \(below.joined(separator: ", "))\n".utf8))
                failed = true
            }
        }
        if let floors {
            let below = report.belowFloors(floors)
            for line in below { FileHandle.standardError.write(Data("below the recorded floor: \(line)\n".utf8)) }
            if !below.isEmpty { failed = true }
        }
        if failed { throw ExitCode(ExitStatus.failed) }
    }
}
