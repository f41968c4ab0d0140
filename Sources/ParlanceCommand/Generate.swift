import ArgumentParser
import Foundation
import Parlance

/// `parlance generate`: annotated utterances generated from a language's templates.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print utterances generated from a language's templates, as annotated corpus records (JSON Lines).",
        discussion: """
            Each catalogue intent's templates (Grammar/Languages/<code>/*.sentences) with their slots filled \
            from the language's gazetteer.json (people, places, message texts, amounts, dates, workouts, \
            albums…), its enum lexicon and the context's app names. Names, places and texts are annotated \
            with their surface values (typed values and enum cases are left to the text layer and the \
            lexicon). Deterministic for a seed. `parlance train --generate N` learns from N per intent.
            """
    )

    @OptionGroup var contextOptions: ContextOptions

    @Option(name: .long, help: "BCP 47 locale (its language's templates).")
    var locale: String = "en-US"

    @Option(name: .long, help: "Utterances per intent.")
    var perIntent: Int = 5

    @Option(name: .long, help: "Random seed.")
    var seed: UInt64 = 2026

    func validate() throws {
        guard perIntent > 0 else { throw ValidationError("--per-intent must be at least 1") }
    }

    func run() throws {
        let parser = try IntentParser(context: contextOptions.load())
        let language: String
        do { language = try ParlanceLocale(locale).language } catch { throw ValidationError(error.description) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for u in try parser.generate(language: language, perIntent: perIntent, seed: seed) {
            let record = Record(
                id: u.id, locale: locale, text: u.text, expected: .init(domain: u.domain, intent: u.intent, parameters: u.parameters))
            print(String(decoding: try encoder.encode(record), as: UTF8.self))
        }
    }

    struct Record: Encodable {
        struct Expected: Encodable {
            let domain: String
            let intent: String
            let parameters: [String: [String]]
        }
        let id: String
        let locale: String
        let text: String
        let expected: Expected
    }
}
