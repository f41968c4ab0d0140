import ArgumentParser
import Foundation
import Parlance

/// `parlance train`: fits the trained tier (intent classifier and parameter tagger) per language.
struct Train: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Train the trained tier (intent classifier and parameter tagger) from annotated corpora.",
        discussion: """
            Reads every .jsonl file under the given folders (records.md input records with "expected"), \
            groups records by language and writes OUT/<language>.plm. Intents outside the catalogue \
            (and out-of-domain lines) teach the classifier "none". The tagger learns from every \
            record whose parameters are annotated: not from lines marked "annotation": "intent-only", nor from \
            the files under an --intent-only path (corpora labelled with intents only, such as CLINC150). \
            A fixed tenth of every source (FallbackTrainer.isAside: by dialogue, test case or sentence \
            for the public splits) is never trained on: the calibration temperature and the rejection \
            threshold are tuned on it, and `parlance eval --aside` reports on it. Deterministic: the \
            same corpora give the same models.
            """
    )

    @OptionGroup var contextOptions: ContextOptions

    @Option(name: .long, help: "Where to write the models.")
    var out: String = "Sources/ParlanceParser/Grammar/Models"

    @Option(name: .long, help: "A corpus file or folder whose parameters are not annotated (repeatable).")
    var intentOnly: [String] = []

    @Option(name: .long, help: "Only these languages (comma-separated); default: all with a grammar.")
    var languages: String?

    @Option(
        name: .long,
        help:
            "Also learn from this many utterances per intent generated from each language's templates (`parlance generate`; trained on, never aside: the calibration is tuned on what people said)."
    )
    var generate: Int = 0

    @Argument(help: "Corpus folders or files.")
    var corpora: [String]

    func run() throws {
        let parser = try IntentParser(context: contextOptions.load())
        let wanted = Set((languages ?? IntentParser.supportedLanguages.joined(separator: ",")).split(separator: ",").map(String.init))
        let catalogue = IntentCatalogue.standard
        let unannotated = try Set(CorpusFiles.list(intentOnly).map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        let files = try CorpusFiles.list(corpora)
        var items: [String: [FrameModelTrainer.Item]] = [:]
        var sources: [String: [String: Int]] = [:]
        var unplaced: [String: Int] = [:]
        for file in files {
            let tagFile = !unannotated.contains(URL(fileURLWithPath: file).standardizedFileURL.path)
            let source = URL(fileURLWithPath: file).deletingLastPathComponent().lastPathComponent
            for record in try AnnotatedRecord.load(file) {
                guard let locale = try? ParlanceLocale(record.locale ?? "en"), wanted.contains(locale.language),
                    IntentParser.supportedLanguages.contains(locale.language)
                else { continue }
                let reference =
                    try record.referenceTime.map { try ReferenceTime(iso8601: $0) } ?? ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")
                let label = record.expected.intent.flatMap { catalogue.intent($0) != nil ? $0 : nil } ?? FallbackModel.none
                let item = try parser.trainingItem(
                    record.text, locale: locale, referenceTime: reference, intent: label == FallbackModel.none ? nil : label,
                    parameters: record.expected.surfaceValues, tagParameters: tagFile && record.annotation != "intent-only")
                for name in item.unplaced { unplaced["\(locale.language) \(name)", default: 0] += 1 }
                items[locale.language, default: []].append(
                    .init(id: record.id, label: label, aside: FallbackTrainer.isAside(record.id), item: item))
                sources[locale.language, default: [:]][source, default: 0] += 1
            }
        }
        if generate > 0 {
            for language in IntentParser.supportedLanguages where wanted.contains(language) {
                let locale = try ParlanceLocale(language)
                let reference = try ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")
                for u in try parser.generate(language: language, perIntent: generate) {
                    let item = try parser.trainingItem(
                        u.text, locale: locale, referenceTime: reference, intent: u.intent, parameters: u.parameters, tagParameters: true)
                    for name in item.unplaced { unplaced["\(language) \(name)", default: 0] += 1 }
                    // Never aside: the temperature and threshold are tuned on what people said.
                    items[language, default: []].append(.init(id: u.id, label: u.intent, aside: false, item: item))
                    sources[language, default: [:]]["generated", default: 0] += 1
                }
            }
        }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for (language, list) in items.sorted(by: { $0.key < $1.key }) {
            let model = FrameModelTrainer.train(
                language: language, items: list, capitalsCarrySignal: try parser.capitalsCarrySignal(language),
                sources: sources[language] ?? [:])
            let path = (out as NSString).appendingPathComponent("\(language).plm")
            try model.encoded().write(to: URL(fileURLWithPath: path))
            let r = model.classifier.training
            print(
                "\(language): \(r.examples) examples (\(r.heldOut) aside), \(model.classifier.featureCount) classifier features, "
                    + "\(model.tagger?.featureCount ?? 0) tagger features; aside: intent accuracy \(r.heldOutAccuracy), "
                    + "out-of-domain rejection \(r.heldOutRejection), temperature \(model.temperature), threshold \(model.classifier.threshold) → \(path)"
            )
        }
        for (key, n) in unplaced.sorted(by: { $0.key < $1.key }) {
            print("note: \(n) values of \(key) not found in their text (left untagged)")
        }
    }
}
