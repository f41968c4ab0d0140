import ArgumentParser
import Foundation
import Parlance

/// `parlance examples`: what can I say to an app?
struct Examples: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List an app's example phrases in a language (\"What can I do with Soup Chef?\").",
        discussion:
            "From the app's custom intents (their phrases), its AppIntentVocabulary.plist (IntentPhrases), the user's shortcuts for it (their phrases, or suggested phrases for a shortcut without one), and, for the catalogue intents it handles (messaging, notes, payments…), the language's example requests (Grammar/Languages/<code>/examples.json; --per-intent of each, three at most), each one the parser reads back as that intent."
    )

    @OptionGroup var contextOptions: ContextOptions

    @Option(name: .long, help: "The app.")
    var app: String

    @Option(name: .long, help: "BCP 47 locale of the phrases.")
    var locale: String = "en-US"

    @Option(name: .long, help: "Example requests per catalogue intent (at most 3).")
    var perIntent: Int = 3

    func validate() throws {
        guard perIntent > 0 else { throw ValidationError("--per-intent must be at least 1") }
    }

    func run() throws {
        let context = try contextOptions.load()
        guard let definition = context.apps.first(where: { $0.allNames.contains(app) }) else {
            throw InputError("unknown app '\(app)': the context has \(context.apps.map(\.name).joined(separator: ", "))")
        }
        let language: String
        do { language = try ParlanceLocale(locale).language } catch { throw ValidationError(error.description) }
        var examples = context.examples(app: definition.name, language: language)
        if !definition.intents.isEmpty {
            examples += try IntentParser(context: context).catalogueExamples(app: definition.name, language: language, perIntent: perIntent)
        }
        guard !examples.isEmpty else {
            throw InputError("\(definition.name) has no example phrases in \(language)")
        }
        for (intent, phrases) in examples {
            print("\(intent):")
            for phrase in phrases { print("  \(phrase)") }
        }
    }
}

/// `parlance respond`: a custom intent's response, rendered.
struct Respond: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a custom intent's response template for a response code and properties.",
        discussion: """
            Properties are NAME=VALUE; a value that reads as a number is a number (for plurals), an enum \
            parameter's case id is said in the locale's words. Example: parlance respond --app "Soup Chef" \
            --intent orderSoup --code success --locale es-ES soup=tomato quantity=1 waitTime=10
            """
    )

    @OptionGroup var contextOptions: ContextOptions

    @Option(name: .long, help: "The app.")
    var app: String

    @Option(name: .long, help: "The custom intent.")
    var intent: String

    @Option(name: .long, help: "The response code (success, failure, or the app's own).")
    var code: String = "success"

    @Option(name: .long, help: "BCP 47 locale of the response.")
    var locale: String = "en-US"

    @Argument(help: "Properties, NAME=VALUE.")
    var properties: [String] = []

    func run() throws {
        let context = try contextOptions.load()
        guard let definition = context.apps.first(where: { $0.allNames.contains(app) }) else {
            throw InputError("unknown app '\(app)': the context has \(context.apps.map(\.name).joined(separator: ", "))")
        }
        guard let custom = definition.customIntents.first(where: { $0.name == intent }) else {
            throw InputError(
                "\(definition.name) declares no custom intent '\(intent)' (it has \(definition.customIntents.map(\.name).joined(separator: ", ")))"
            )
        }
        var arguments: [String: ResponseValue] = [:]
        for property in properties {
            let parts = property.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("a property is NAME=VALUE, not '\(property)'") }
            arguments[parts[0]] = Double(parts[1]).map { .number($0) } ?? .string(parts[1])
        }
        do {
            print(try custom.render(code: code, properties: arguments, locale: ParlanceLocale(locale)))
        } catch let error as CustomIntent.ResponseError {
            throw ValidationError(error.description)
        }
    }
}
