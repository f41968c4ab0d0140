import ArgumentParser
import Foundation
import Parlance

/// `parlance parse`: one utterance to one output record.
struct Parse: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Parse one utterance into an intent (domain, intent, app, parameters).",
        discussion: "Prints one output record (records.md) as JSON, or a readable summary with --format text."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case json, text }

    @Option(name: .long, help: "BCP 47 locale of the utterance.")
    var locale: String = "en-US"

    @OptionGroup var contextOptions: ContextOptions

    @OptionGroup var resolveOptions: ResolveOptions

    @Option(name: .long, help: "ISO 8601 time that relative dates resolve against (default: now).")
    var referenceTime: String?

    @Flag(name: .long, help: "Say which template decided, with scores.")
    var explain = false

    @Option(name: .long, help: "json (one output record) or text (a readable summary).")
    var format: Format = .json

    @Argument(help: "The utterance.")
    var text: String

    func validate() throws {
        do { _ = try ParlanceLocale(locale) } catch { throw ValidationError(error.description) }
        if let referenceTime {
            do { _ = try ReferenceTime(iso8601: referenceTime) } catch { throw ValidationError(error.description) }
        }
    }

    func run() throws {
        let parser = try resolveOptions.parser(contextOptions.load())
        let locale = try ParlanceLocale(self.locale)
        let reference = try referenceTime.map { try ReferenceTime(iso8601: $0) } ?? .now()
        let result: ParseResult
        do {
            result = try parser.parse(text, locale: locale, referenceTime: reference)
        } catch let error as ParseError {
            throw ValidationError(error.description)
        } catch let error as ResolverError {
            throw ValidationError(error.description)
        }
        switch format {
        case .json:
            print(try ParlanceJSON.line(OutputRecord(id: nil, locale: locale.identifier, text: text, result: result, explain: explain)))
        case .text:
            print(Summary.text(result, explain: explain))
        }
    }
}

enum Summary {
    static func text(_ result: ParseResult, explain: Bool) -> String {
        var lines: [String] = []
        if let intent = result.intent {
            lines.append("\(intent.domain) / \(intent.name)  app: \(intent.app ?? "(none)")  confidence: \(intent.confidence)")
            for p in intent.parameters {
                let span = p.span.map { " \($0)" } ?? ""
                lines.append("  \(p.name): \(p.value.display)\(p.raw != p.value.display ? "  (said \"\(p.raw)\")" : "")\(span)")
                if let resolution = p.resolution { lines.append("    → \(text(resolution))") }
            }
            for m in intent.missing { lines.append("  \(m.name): (not said)\n    → \(text(m.resolution))") }
        } else {
            lines.append("no intent: \(result.reason ?? "nothing matched")")
        }
        for alternative in result.alternatives {
            lines.append("  alternative: \(alternative.domain) / \(alternative.name) (\(alternative.confidence))")
        }
        if explain {
            let e = result.explanation
            lines.append("decided by: \(e.decidedBy)\(e.source.map { " \($0)" } ?? "")\(e.score.map { ", score \($0)" } ?? "")")
            if let mention = e.appMention { lines.append("app mention: \(mention)") }
            for note in e.notes { lines.append("note: \(note)") }
        }
        return lines.joined(separator: "\n")
    }

    static func text(_ resolution: Resolution) -> String {
        let items = resolution.items.map { "\($0.display) [\($0.id)] \($0.score)" }.joined(separator: ", ")
        return "\(resolution.kind.rawValue)\(items.isEmpty ? "" : ": \(items)")\(resolution.reason.map { " (\($0))" } ?? "")"
    }
}
