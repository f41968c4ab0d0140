import ArgumentParser
import Foundation
import Parlance

/// `--context FILE`: the apps and vocabularies; the built-in demo context without it.
struct ContextOptions: ParsableArguments {
    @Option(name: .long, help: "Context file (JSON: apps, intents, vocabularies). Default: the built-in demo (MonkeyChat, MonkeyFit, Soup Chef).")
    var context: String?

    func load() throws -> ParserContext {
        guard let context else { return .demo }
        do {
            return try ParserContext.load(contentsOf: URL(fileURLWithPath: context))
        } catch {
            throw ValidationError(error.description)
        }
    }
}
