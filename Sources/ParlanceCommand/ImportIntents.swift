import ArgumentParser
import Foundation
import Parlance

/// `parlance import-intents`: an Xcode intent definition file as context-file declarations.
struct ImportIntents: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-intents",
        abstract: "Convert an Xcode .intentdefinition file (and its <lang>.lproj/*.strings) to custom intent declarations.",
        discussion: """
            Prints {"intents": [...]} as JSON, ready for an app's "intents" in a context file (or name the file \
            directly with the app's "intentDefinition"). Constructs Parlance does not support are listed on standard \
            error by name; the exit status is then still 0 unless --strict.
            """
    )

    @Argument(help: "The .intentdefinition file (an XML property list).")
    var file: String

    @Option(name: .long, help: "The language of the file's own strings (default: its .lproj folder's, else en).")
    var baseLanguage: String?

    @Flag(name: .long, help: "Exit with status 1 when anything was left out.")
    var strict = false

    func run() throws {
        let definition: IntentDefinitionFile
        do {
            definition = try IntentDefinitionFile.load(contentsOf: URL(fileURLWithPath: file), baseLanguage: baseLanguage)
        } catch {
            throw InputError(error.description)
        }
        for warning in definition.warnings {
            FileHandle.standardError.write(Data("parlance: \(file): warning: \(warning)\n".utf8))
        }
        struct Output: Encodable { var intents: [CustomIntent] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(Output(intents: definition.intents)), as: UTF8.self))
        if strict, !definition.warnings.isEmpty { throw ExitCode(ExitStatus.failed) }
    }
}
