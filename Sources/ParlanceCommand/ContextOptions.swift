import ArgumentParser
import Foundation
import Parlance

/// `--context FILE`: the apps and vocabularies; the built-in demo context without it.
struct ContextOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "Context file (JSON: apps, intents, vocabularies). Default: the built-in demo (MonkeyChat, MonkeyFit, MonkeyNotes, MonkeyBank, Soup Chef)."
    )
    var context: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Donation journal (JSON Lines, replayed in order after the context's own donations): {\"donate\": {\"id\", \"group\", \"app\", \"intent\", \"parameters\", \"date\"}}, {\"delete\": {\"ids\": [...]}}, {\"delete\": {\"group\": \"g\"}}, {\"delete\": {\"all\": true}}.",
            valueName: "file"))
    var donations: String?

    @Flag(
        name: .long,
        help:
            "Make the context's warnings (a vocabulary or intent definition file it names that cannot be read, or is read in part) fatal: exit status 64 before any input is read."
    )
    var strict = false

    /// The context; problems with the app vocabulary files it names are warned about on
    /// standard error (the rest of the context still loads), or, with `--strict`, fatal.
    func load() throws -> ParserContext {
        var loaded: ParserContext
        if let context {
            do {
                loaded = try ParserContext.load(contentsOf: URL(fileURLWithPath: context))
            } catch {
                throw InputError(error.description)
            }
        } else {
            loaded = .demo
        }
        for diagnostic in loaded.diagnostics {
            FileHandle.standardError.write(Data("parlance: \(diagnostic.description)\n".utf8))
        }
        if strict, !loaded.diagnostics.isEmpty {
            throw InputError(
                "--strict: the context has \(loaded.diagnostics.count) warning\(loaded.diagnostics.count == 1 ? "" : "s") (above)")
        }
        if let donations {
            let log = DonationLog(loaded.donations)
            do { try log.replay(contentsOf: URL(fileURLWithPath: donations), context: loaded) } catch {
                throw InputError(error.description)
            }
            loaded.donations = log.all
        }
        return loaded
    }
}

/// `--no-resolve`: parse only.
struct ResolveOptions: ParsableArguments {
    @Flag(
        name: .customLong("resolve"), inversion: .prefixedNo,
        help: "Resolve names (contacts, workouts, albums…) against the context's vocabularies (records.md \"resolution\").")
    var resolve = true

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Template matcher steps one utterance may take; over it, its record is the error too_slow (a guard: the team corpora take at most a few thousand).",
            valueName: "steps"))
    var workBudget: Int = IntentParser.defaultWorkBudget

    func validate() throws {
        guard workBudget > 0 else { throw ValidationError("--work-budget must be a positive number of steps") }
    }

    func parser(_ context: ParserContext) throws -> any UtteranceParser {
        // One vocabulary store and one donation log, read by both stages.
        let donations = DonationLog(context.donations)
        let store = VocabularyStore(context: context)
        let parser = try IntentParser(context: context, vocabulary: store, donations: donations, workBudget: workBudget)
        return resolve ? ResolvingParser(parser: parser, resolver: Resolver(context: context, store: store, donations: donations)) : parser
    }
}

/// The input of a streaming command: the file named, or standard input.
func openInput(_ path: String?) throws -> FileHandle {
    guard let path else { return .standardInput }
    guard let handle = FileHandle(forReadingAtPath: path) else { throw InputError("cannot read '\(path)'") }
    return handle
}
