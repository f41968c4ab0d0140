import ArgumentParser
import Foundation
import Parlance

/// `--context FILE`: the apps and vocabularies; the built-in demo context without it.
struct ContextOptions: ParsableArguments {
    @Option(name: .long, help: "Context file (JSON: apps, intents, vocabularies). Default: the built-in demo (MonkeyChat, MonkeyFit, Soup Chef).")
    var context: String?

    /// The context; problems with the app vocabulary files it names are warned about on
    /// standard error (the rest of the context still loads).
    func load() throws -> ParserContext {
        guard let context else { return .demo }
        do {
            let loaded = try ParserContext.load(contentsOf: URL(fileURLWithPath: context))
            for diagnostic in loaded.diagnostics {
                FileHandle.standardError.write(Data("parlance: \(diagnostic.description)\n".utf8))
            }
            return loaded
        } catch {
            throw ValidationError(error.description)
        }
    }
}

/// `--no-resolve`: parse only.
struct ResolveOptions: ParsableArguments {
    @Flag(name: .customLong("resolve"), inversion: .prefixedNo,
          help: "Resolve names (contacts, workouts, albums…) against the context's vocabularies (records.md \"resolution\").")
    var resolve = true

    func parser(_ context: ParserContext) throws -> any UtteranceParser {
        let donations = DonationLog(context.donations)
        let parser = try IntentParser(context: context, donations: donations)
        return resolve ? ResolvingParser(parser: parser, resolver: Resolver(context: context, donations: donations)) : parser
    }
}

/// The input of a streaming command: the file named, or standard input.
func openInput(_ path: String?) throws -> FileHandle {
    guard let path else { return .standardInput }
    guard let handle = FileHandle(forReadingAtPath: path) else { throw ValidationError("cannot read '\(path)'") }
    return handle
}
