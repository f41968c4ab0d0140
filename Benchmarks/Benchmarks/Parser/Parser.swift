import Benchmark
import Foundation
import Parlance

/// Full parses per locale (text layer, app mentions, templates, fallback) over the
/// utterances of `Corpora/intents/<locale>/`, against `Corpora/contexts/monkey.json`: without
/// resolution, with it (one core), and with it on all cores. The intents found are checked
/// against a first, untimed run.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3),
        maxIterations: 200
    )
    let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    guard let context = try? ParserContext.load(contentsOf: root.appendingPathComponent("Corpora/contexts/monkey.json")),
        let parser = try? IntentParser(context: context)
    else { fatalError("cannot load Corpora/contexts/monkey.json") }
    let resolving = ResolvingParser(
        parser: parser, resolver: Resolver(context: context, store: parser.vocabulary, donations: parser.donations))
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let reference = try! ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")

    for folder in ["en-US", "es-ES", "fr-FR", "de-DE", "it-IT", "pt-BR"] {
        var records: [AnnotatedRecord] = []
        for file in (try? CorpusFiles.list([root.appendingPathComponent("Corpora/intents/\(folder)").path])) ?? [] {
            records += (try? AnnotatedRecord.load(file)) ?? []
        }
        guard !records.isEmpty, let locale = try? ParlanceLocale(folder) else { fatalError("no corpus for \(folder)") }
        let texts = records.map(\.text)
        let expected = texts.map { try! parser.parse($0, locale: locale, referenceTime: reference).intent?.name }
        // The parser must be doing its job before it is timed.
        let correct = zip(expected, records).filter { $0 == $1.expected.intent }.count
        precondition(Double(correct) / Double(records.count) > 0.9, "\(folder): parser accuracy too low to benchmark")

        Benchmark("parse \(folder) (\(texts.count) utterances)") { benchmark in
            for _ in benchmark.scaledIterations {
                for (n, text) in texts.enumerated() {
                    let name = try parser.parse(text, locale: locale, referenceTime: reference).intent?.name
                    precondition(name == expected[n])
                }
            }
        }
        Benchmark("parse+resolve \(folder) (\(texts.count) utterances)") { benchmark in
            for _ in benchmark.scaledIterations {
                for (n, text) in texts.enumerated() {
                    let name = try resolving.parse(text, locale: locale, referenceTime: reference).intent?.name
                    precondition(name == expected[n])
                }
            }
        }
        Benchmark("parse+resolve \(folder) (\(texts.count) utterances, \(cores) cores)") { benchmark in
            for _ in benchmark.scaledIterations {
                DispatchQueue.concurrentPerform(iterations: cores) { worker in
                    var n = worker
                    while n < texts.count {
                        let name = try? resolving.parse(texts[n], locale: locale, referenceTime: reference).intent?.name
                        precondition(name == expected[n])
                        n += cores
                    }
                }
            }
        }
    }
}
