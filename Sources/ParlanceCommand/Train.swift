import ArgumentParser
import Foundation
import Parlance

/// `parlance train`: fits the fallback models from annotated corpora.
struct Train: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Train the fallback intent models from annotated corpora (records.md input records with \"expected\").",
        discussion: """
            Reads every .jsonl file under the given folders, groups records by language, and writes \
            OUT/<language>.json. A fifth of the records (by a stable hash of their id) is held out to \
            tune the rejection threshold and report accuracy; the model is then fitted on all records. \
            Deterministic: the same corpora give the same models.
            """
    )

    @OptionGroup var contextOptions: ContextOptions

    @Option(name: .long, help: "Where to write the models.")
    var out: String = "Sources/ParlanceParser/Grammar/Models"

    @Flag(name: .long, help: "Fit the models without the held-out fifth (to measure the whole parser on it).")
    var excludeHeldOut = false

    @Argument(help: "Corpus folders or files.")
    var corpora: [String]

    func run() throws {
        let parser = try IntentParser(context: contextOptions.load())
        var examples: [String: [FallbackTrainer.Example]] = [:]
        for file in try CorpusFiles.list(corpora) {
            for record in try AnnotatedRecord.load(file) {
                let locale = try ParlanceLocale(record.locale ?? "en")
                guard IntentParser.supportedLanguages.contains(locale.language) else { continue }
                let reference = try record.referenceTime.map { try ReferenceTime(iso8601: $0) } ?? .now()
                let features = try parser.fallbackFeatures(record.text, locale: locale, referenceTime: reference)
                examples[locale.language, default: []].append(.init(features: features, label: record.expected.intent ?? FallbackModel.none, id: record.id))
            }
        }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for (language, list) in examples.sorted(by: { $0.key < $1.key }) {
            let model = FallbackTrainer.train(language: language, examples: list, excludeHeldOut: excludeHeldOut)
            let path = (out as NSString).appendingPathComponent("\(language).json")
            try (ParlanceJSON.line(model) + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let r = model.training
            print("\(language): \(r.examples) examples, \(model.weights.count) features; held out \(r.heldOut): intent accuracy \(r.heldOutAccuracy), out-of-domain rejection \(r.heldOutRejection), threshold \(model.threshold) → \(path)")
        }
    }
}

