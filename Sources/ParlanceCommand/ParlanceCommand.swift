import ArgumentParser
import Parlance

/// `parlance`: the command-line face of the Parlance library.
@main
struct ParlanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parlance",
        abstract: "Understand what people say to a voice assistant, in several languages.",
        discussion: """
            Supported languages: \(ParlanceLocale.supportedLanguages.joined(separator: ", ")) \
            (ICU \(Parlance.icuVersion)).
            """,
        version: parlanceVersion,
        subcommands: [
            Parse.self, Batch.self, Resolve.self, Eval.self, Examples.self, Respond.self, ImportIntents.self, Tokens.self, Train.self,
            Generate.self, NewLanguage.self, Parity.self, Serve.self, Compile.self
        ]
    )
}
