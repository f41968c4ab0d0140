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

    @Option(name: .long, help: "table (Markdown) or json.")
    var format: Format = .table

    @Option(name: .long, help: "Parallel workers (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: "Only these languages (comma-separated, e.g. en,es); default: all with a grammar.")
    var languages: String?

    @Flag(name: .long, help: "Only the records the fallback training holds out.")
    var heldOut = false

    @Argument(help: "Corpus folders or files.")
    var corpora: [String]

    func run() throws {
        let parser = try IntentParser(context: contextOptions.load())
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
        switch format {
        case .json:
            print(try ParlanceJSON.line(byLanguage))
        case .table:
            print("| language | in-domain | intent accuracy | app accuracy | exact frame | out-of-domain | rejection | parameter P | R | F1 |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for (language, m) in byLanguage.sorted(by: { $0.key < $1.key }) {
                let f = { (x: Double) in String(format: "%.3f", x) }
                print("| \(language) | \(m.inDomain) | \(f(m.intentAccuracy)) | \(f(m.appAccuracy)) | \(f(m.exactFrameRate)) | \(m.outOfDomain) | \(f(m.rejectionRate)) | \(f(m.parameterPrecision)) | \(f(m.parameterRecall)) | \(f(m.parameterF1)) |")
            }
        }
        let errors = outcomes.filter { $0.error != nil }.count
        if errors > 0 { FileHandle.standardError.write(Data("\(errors) records could not be parsed\n".utf8)) }
    }
}
