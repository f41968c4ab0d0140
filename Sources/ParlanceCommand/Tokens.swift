import ArgumentParser
import Parlance

/// `parlance tokens`: the text layer's view of an utterance.
struct Tokens: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tokenize an utterance and find its numbers, amounts, dates, durations and distances.",
        discussion: """
            Prints one JSON object: {"locale", "text", "referenceTime", "tokens": [{"text", \
            "normalized", "key", "latin", "kind", "span"}], "entities": [{"type", "value", "span", "text"}]}. \
            Spans count Unicode scalars from 0, end exclusive.
            """
    )

    @Option(name: .long, help: "BCP 47 locale of the utterance, e.g. es-ES, fr, pt-BR.")
    var locale: String

    @Option(name: .long, help: "ISO 8601 time that relative dates resolve against (default: now), e.g. 2026-11-21T10:00:00+01:00.")
    var referenceTime: String?

    @Flag(name: .long, help: "Indent the JSON.")
    var pretty = false

    @Argument(help: "The utterance.")
    var text: String

    func validate() throws {
        _ = try parsedLocale()
        _ = try parsedReferenceTime()
    }

    func run() throws {
        let locale = try parsedLocale()
        let reference = try parsedReferenceTime()
        let analysis = try TextAnalyzer.shared.analyze(text, locale: locale, referenceTime: reference)
        print(try ParlanceJSON.line(analysis, pretty: pretty))
    }

    private func parsedLocale() throws -> ParlanceLocale {
        do { return try ParlanceLocale(locale) } catch { throw ValidationError(error.description) }
    }

    private func parsedReferenceTime() throws -> ReferenceTime {
        guard let referenceTime else { return .now() }
        do { return try ReferenceTime(iso8601: referenceTime) } catch { throw ValidationError(error.description) }
    }
}
