import Benchmark
import Foundation
import Parlance

/// Tokenize + normalize (the text layer without value recognizers), and the full text
/// analysis, per locale, on the utterances of `Corpora/intents/<locale>/`.
/// Each benchmark checks its output before it is timed, so a broken build cannot look fast.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )

    for (tag, folder) in [("en", "en-US"), ("es", "es-ES"), ("fr", "fr-FR"), ("de", "de-DE"), ("it", "it-IT"), ("pt", "pt-BR")] {
        let utterances = CorpusUtterances.load(folder)
        guard !utterances.isEmpty, let locale = try? ParlanceLocale(tag) else { fatalError("no corpus for \(folder)") }
        let analyzer = TextAnalyzer.shared
        let reference = try! ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")
        // Check outputs once: every utterance yields tokens whose text is its span.
        let tokenCount = utterances.reduce(0) { sum, text in
            let tokens = try! analyzer.tokenize(text, locale: locale)
            let scalars = Array(text.unicodeScalars)
            precondition(tokens.allSatisfy { String(String.UnicodeScalarView(scalars[$0.span.start..<$0.span.end])) == $0.text })
            return sum + tokens.count
        }
        precondition(tokenCount > utterances.count, "tokenizer returned too few tokens")

        Benchmark(
            "tokenize+normalize \(folder) (\(utterances.count) utterances)",
            configuration: .init(scalingFactor: .one)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                var count = 0
                for text in utterances { count += try analyzer.tokenize(text, locale: locale).count }
                precondition(count == tokenCount)
                blackHole(count)
            }
        }

        Benchmark("analyze (tokens+entities) \(folder) (\(utterances.count) utterances)") { benchmark in
            for _ in benchmark.scaledIterations {
                var count = 0
                for text in utterances { count += try analyzer.analyze(text, locale: locale, referenceTime: reference).tokens.count }
                precondition(count == tokenCount)
                blackHole(count)
            }
        }
    }
}

enum CorpusUtterances {
    /// The `text` of every line in `Corpora/intents/<folder>/*.jsonl`.
    static func load(_ folder: String) -> [String] {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent("Corpora/intents/\(folder)")
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var texts: [String] = []
        for file in files.sorted() where file.hasSuffix(".jsonl") {
            guard let content = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) else { continue }
            for line in content.split(separator: "\n") {
                if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let text = object["text"] as? String
                {
                    texts.append(text)
                }
            }
        }
        return texts
    }
}
