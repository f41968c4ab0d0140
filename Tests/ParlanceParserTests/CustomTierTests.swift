import Foundation
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser

/// The custom-intent tier (few-shot, trained when the context is first asked): requests the
/// apps' phrases do not foresee reach their custom intents; questions, wrong apps and things
/// the app does not offer do not. And the generator of training sentences.
@Suite struct CustomTierTests {
    static let time = try! ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let parser = try! IntentParser(
        context: ParserContext.load(contentsOf: repository.appendingPathComponent("Corpora/contexts/custom.json")))

    func parse(_ text: String, _ locale: String) throws -> ParseResult {
        try Self.parser.parse(text, locale: ParlanceLocale(locale), referenceTime: Self.time)
    }

    @Test(arguments: [
        ("I'd like a bowl of clam chowder from Soup Chef", "en-US", "orderSoup", "clamChowder"),
        ("Soup Chef, je voudrais une soupe de palourdes", "fr-FR", "orderSoup", nil)
    ])
    func unforeseenPhrasingsReachTheCustomIntent(text: String, locale: String, intent: String, value: String?) throws {
        let result = try parse(text, locale)
        let frame = try #require(result.intent, "\(text): \(result.reason ?? "")")
        #expect(frame.domain == "custom")
        #expect(frame.name == intent)
        if let value {
            #expect(frame.parameters.contains { if case .enumCase(let v) = $0.value { v == value } else { false } }, "\(frame.parameters)")
        }
    }

    @Test(arguments: [
        ("How do I make clam chowder at home?", "en-US"),  // a question about the thing, not a request
        ("Order a tomato soup with CoffeeMonkey", "en-US"),  // the app named offers no such intent
        ("Order a pepperoni pizza from Soup Chef", "en-US"),  // a value the app does not have
        ("¿Cómo se hace una crema de almejas?", "es-ES"),
        ("What's the weather going to be like tomorrow?", "en-US")
    ])
    func questionsWrongAppsAndOtherThingsAreNotCustomIntents(text: String, locale: String) throws {
        let result = try parse(text, locale)
        #expect(result.intent?.domain != "custom", "\(text) → \(result.intent?.name ?? "-")")
    }

    @Test func aRequiredValueTheAppDoesNotHaveIsNoIntentAndSaysWhy() throws {
        // The tier reads orderSoup, but no soup is said and "gazpacho" is none of Soup Chef's.
        let result = try parse("Soup Chef order me some gazpacho", "en-US")
        #expect(result.intent == nil)
        #expect(
            result.explanation.notes.contains {
                $0.contains("custom-intent tier") && $0.contains("no soup is said") && $0.contains("gazpacho")
            },
            "\(result.explanation.notes)")
        // Whatever the reason, a reading the tier does not take is explained.
        let pizza = try parse("Order a pepperoni pizza from Soup Chef", "en-US")
        #expect(pizza.intent == nil)
        #expect(pizza.explanation.notes.contains { $0.contains("custom-intent tier") }, "\(pizza.explanation.notes)")
    }

    @Test func generatedSentencesAreAnnotatedWithValuesTheySay() throws {
        let parser = try IntentParser(context: .demo)
        for language in IntentParser.supportedLanguages {
            let sentences = try parser.generate(language: language, perIntent: 4)
            #expect(Set(sentences.map(\.intent)).count >= 15, "\(language): intents generated \(Set(sentences.map(\.intent)).sorted())")
            for s in sentences {
                for (name, values) in s.parameters {
                    for v in values { #expect(s.text.contains(v), "\(language) \(name) '\(v)' not in '\(s.text)'") }
                }
            }
            // Deterministic: the same seed gives the same sentences.
            #expect(try parser.generate(language: language, perIntent: 4).map(\.text) == sentences.map(\.text))
        }
    }
}
