import Foundation
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceText

/// `Grammar/Languages/<language>/examples.json`, what `parlance examples` shows for the catalogue
/// intents an app handles: every intent has its examples, and each, said with the app of the
/// team's context that handles the intent, is read back as that intent for that app.
@Suite struct ExampleRequestTests {
    static let context = ParseCaseTests.repository.appendingPathComponent("Corpora/contexts/monkey.json")

    @Test(arguments: IntentParser.supportedLanguages)
    func examplesReadBackAsTheirIntent(language: String) throws {
        let parser = try IntentParser(context: ParserContext.load(contentsOf: Self.context))
        let examples = try LanguageGrammar.examples(language: language)
        let locale = try ParlanceLocale(language)
        let time = try ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")
        for spec in parser.catalogue.intents {
            let phrases = examples[spec.name] ?? []
            #expect(phrases.count >= 2, "\(language)/examples.json: \(spec.name) needs examples")
            guard let app = parser.context.apps(handling: spec.name).first else {
                Issue.record("no app of monkey.json handles \(spec.name)")
                continue
            }
            for phrase in phrases {
                #expect(phrase.components(separatedBy: "{app}").count == 2, "\(language) \(spec.name): '{app}' once in '\(phrase)'")
                let text = phrase.replacingOccurrences(of: "{app}", with: app.name)
                let frame = try parser.parse(text, locale: locale, referenceTime: time).intent
                #expect(frame?.name == spec.name && frame?.app == app.name, "\(language): '\(text)' reads as \(frame?.name ?? "nothing")")
            }
        }
        let unknown = Set(examples.keys).subtracting(parser.catalogue.intents.map(\.name))
        #expect(unknown.isEmpty, "\(language)/examples.json: no catalogue intent \(unknown.sorted())")
    }

    @Test func anAppIsShownTheExamplesOfItsIntentsOnly() throws {
        let parser = try IntentParser(context: ParserContext.load(contentsOf: Self.context))
        let shown = try parser.catalogueExamples(app: "MonkeyBank", language: "fr", perIntent: 2)
        #expect(shown.map(\.intent) == ["payBill", "searchForBills", "transferMoney", "searchForAccounts"])
        for (_, phrases) in shown {
            #expect(phrases.count == 2)
            #expect(phrases.allSatisfy { $0.contains("MonkeyBank") && !$0.contains("{app}") })
        }
        // The demo's Soup Chef declares custom intents only: its examples are its own phrases.
        let demo = try IntentParser(context: .demo)
        #expect(demo.context.apps.contains { $0.name == "Soup Chef" })
        #expect(try demo.catalogueExamples(app: "Soup Chef", language: "en").isEmpty)
        #expect(try demo.catalogueExamples(app: "MonkeyNotes", language: "en").map(\.intent).contains("addTasks"))
    }
}
