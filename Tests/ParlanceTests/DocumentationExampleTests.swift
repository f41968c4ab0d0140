import Foundation
import Parlance
import Testing

/// The Swift examples of the README and of the DocC articles (Parlance.md, GettingStarted.md),
/// through `import Parlance` as a user writes them, giving what their comments say.
@Suite struct DocumentationExampleTests {
    /// README "A first look" and the catalog's landing page.
    @Test func parseWithResolution() throws {
        let parser = try ResolvingParser(context: .demo)
        let result = try parser.parse("MonkeyChat Bobo send more bananas", locale: ParlanceLocale("en-US"))
        let intent = try #require(result.intent)
        #expect(intent.domain == "messaging" && intent.name == "sendMessage" && intent.app == "MonkeyChat")
        #expect(intent.values("recipients").first?.resolution?.kind == .success)
    }

    /// GettingStarted "Parse in Swift": recipients Bobo [11, 15).
    @Test func parseWithoutResolution() throws {
        let parser = try IntentParser(context: .demo)
        let result = try parser.parse("MonkeyChat Bobo send more bananas", locale: ParlanceLocale("en-US"))
        let intent = try #require(result.intent)
        #expect(intent.domain == "messaging" && intent.name == "sendMessage" && intent.app == "MonkeyChat")
        let recipient = try #require(intent.parameters.first)
        #expect(recipient.name == "recipients" && recipient.raw == "Bobo")
        #expect(recipient.span?.start == 11 && recipient.span?.end == 15)
    }

    /// GettingStarted: "Bobo the Grate" is Bobo the Great, to confirm.
    @Test func resolveAName() throws {
        let resolver = Resolver(context: .demo)
        let answer = try resolver.resolve("Bobo the Grate", app: "MonkeyChat", type: "contactName", locale: ParlanceLocale("en-US"))
        #expect(answer.resolution.kind == .confirmationRequired)
        #expect(answer.resolution.items.first?.id == "bobo-great")
        try resolver.store.removeUserVocabulary(ids: ["bobo-great"], app: "MonkeyChat", type: "contactName")
        let after = try resolver.resolve("Bobo the Grate", app: "MonkeyChat", type: "contactName", locale: ParlanceLocale("en-US"))
        #expect(!after.resolution.items.contains { $0.id == "bobo-great" })
    }

    /// ResolutionPolicy "One store for both stages": sign-out reaches parsing and resolution.
    @Test func signOutReachesBothStages() throws {
        let chain = try ResolvingParser(context: .demo)
        #expect(chain.parser.vocabulary === chain.store)
        #expect(
            try chain.resolver.resolve("Bobo Jr.", app: "MonkeyChat", type: "contactName", locale: ParlanceLocale("en-US")).resolution.kind
                == .success)
        try chain.store.removeAllUserVocabulary(app: "MonkeyChat")
        let after = try chain.parse("MonkeyChat Bobo Jr. send more bananas", locale: ParlanceLocale("en-US"))
        let recipient = try #require(after.intent?.values("recipients").first)
        #expect(recipient.resolution?.kind == .unsupported)
    }

    /// GettingStarted "The text layer alone": twenty euros and last Monday.
    @Test func analyzeText() throws {
        let analysis = try TextAnalyzer.shared.analyze(
            "Paga veinte euros a Bobo el lunes pasado",
            locale: ParlanceLocale("es-ES"),
            referenceTime: ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00"))
        let described = analysis.entities.map { "\($0.type) \($0.text) \($0.value)" }
        #expect(
            described == [
                #"currencyAmount veinte euros currencyAmount(ParlanceText.CurrencyAmount(amount: 20, currency: "EUR"))"#,
                #"date el lunes pasado date("2026-11-16")"#
            ], "\(described)")
    }
}
