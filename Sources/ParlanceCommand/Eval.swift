import ArgumentParser
import Foundation
import Parlance

/// `parlance eval`: accuracy of the parser on annotated corpora, per locale.
struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure intent accuracy, out-of-domain rejection and parameter F1 on annotated corpora, per locale.",
        discussion: """
            Reads every .jsonl file under the given files and folders (records.md input records with \
            "expected"). Metric definitions: IntentMetrics in Sources/ParlanceEvaluation. Lines marked \
            "annotation": "intent-only" count for intents only. --held-out keeps only the fifth of \
            records that `parlance train` holds out.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @OptionGroup var contextOptions: ContextOptions

    @OptionGroup var resolveOptions: ResolveOptions

    @Option(name: .long, help: "table (Markdown) or json.")
    var format: Format = .table

    @Option(name: .long, help: "Parallel workers (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: "Only these languages (comma-separated, e.g. en,es); default: all with a grammar.")
    var languages: String?

    @Flag(name: .long, help: "Only the records the fallback training holds out.")
    var heldOut = false

    @Flag(name: .long, help: "List the wrong resolutions under the table.")
    var showErrors = false

    @Argument(help: "Corpus folders or files.")
    var corpora: [String]

    func run() throws {
        let parser = try resolveOptions.parser(contextOptions.load())
        let wanted = Set((languages ?? IntentParser.supportedLanguages.joined(separator: ",")).split(separator: ",").map(String.init))
        var records: [AnnotatedRecord] = []
        for file in try CorpusFiles.list(corpora) {
            records += try AnnotatedRecord.load(file).filter { record in
                let language = (try? ParlanceLocale(record.locale ?? "en").language) ?? ""
                return wanted.contains(language) && (!heldOut || FallbackTrainer.isHeldOut(record.id))
            }
        }
        let outcomes = CorpusRun(parser: parser).parse(records, jobs: jobs)
        var byLanguage: [String: IntentMetrics] = [:]
        for (locale, metrics) in CorpusRun.metricsByLocale(outcomes) {
            let language = (try? ParlanceLocale(locale).language) ?? locale
            byLanguage[language] = (byLanguage[language] ?? IntentMetrics()) + metrics
        }
        var resolution: [String: ResolutionMetrics] = [:]
        var resolutionErrors: [String] = []
        for o in outcomes where o.record.expected.resolution != nil {
            let language = (try? ParlanceLocale(o.record.locale ?? "en").language) ?? "?"
            let wrong = resolution[language, default: ResolutionMetrics()].add(expected: o.record.expected.resolution, predicted: o.result?.intent)
            for w in wrong {
                let got = w.predicted.map { "\($0.kind.rawValue) \($0.items.map(\.id))" } ?? "nothing"
                resolutionErrors.append("\(o.record.id) \(w.parameter): expected \(w.expected.kind.rawValue) \(w.expected.items), got \(got) — \(o.record.text)")
            }
        }
        switch format {
        case .json:
            print(try ParlanceJSON.line(EvalSummary(intents: byLanguage, resolution: resolution)))
        case .table:
            print("| language | in-domain | intent accuracy | app accuracy | exact frame | out-of-domain | rejection | parameter P | R | F1 |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for (language, m) in byLanguage.sorted(by: { $0.key < $1.key }) {
                let f = { (x: Double) in String(format: "%.3f", x) }
                print("| \(language) | \(m.inDomain) | \(f(m.intentAccuracy)) | \(f(m.appAccuracy)) | \(f(m.exactFrameRate)) | \(m.outOfDomain) | \(f(m.rejectionRate)) | \(f(m.parameterPrecision)) | \(f(m.parameterRecall)) | \(f(m.parameterF1)) |")
            }
            if !resolution.isEmpty {
                let kinds = Resolution.Kind.allCases.map(\.rawValue)
                print("")
                print("| language | resolutions | accuracy | " + kinds.joined(separator: " | ") + " |")
                print("|---|---:|---:|" + String(repeating: "---:|", count: kinds.count))
                for (language, m) in resolution.sorted(by: { $0.key < $1.key }) {
                    let cells = kinds.map { kind in m.byKind[kind].map { "\($0.correct)/\($0.expected)" } ?? "–" }
                    print("| \(language) | \(m.expected) | \(String(format: "%.3f", m.accuracy)) | " + cells.joined(separator: " | ") + " |")
                }
                if showErrors {
                    print("")
                    for line in resolutionErrors { print("- \(line)") }
                }
            }
        }
        let errors = outcomes.filter { $0.error != nil }.count
        if errors > 0 { FileHandle.standardError.write(Data("\(errors) records could not be parsed\n".utf8)) }
    }
}

/// `parlance eval --format json`.
struct EvalSummary: Encodable {
    let intents: [String: IntentMetrics]
    let resolution: [String: ResolutionMetrics]
}
