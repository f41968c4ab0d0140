import Foundation
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser

/// Custom intent declarations (the demo's Soup Chef), their responses and examples.
@Suite struct CustomIntentTests {
    static var soupChef: AppDefinition { ParserContext.demo.apps.first { $0.name == "Soup Chef" }! }
    static var orderSoup: CustomIntent { soupChef.customIntents.first { $0.name == "orderSoup" }! }

    @Test func theDemoDeclaresOrderSoup() throws {
        let intent = Self.orderSoup
        #expect(intent.category == "order")
        #expect(intent.confirmation)
        #expect(intent.parameters.map(\.name) == ["soup", "quantity", "options"])
        #expect(intent.parameter("soup")?.required == true)
        #expect(intent.parameter("soup")?.caseName("tomato", language: "es") == "tomate")
        #expect(Self.soupChef.handles("orderSoup"))
    }

    @Test(arguments: [
        ("en-US", 2.0, 1.0, "Your 2 tomato soups will be ready in 1 minute."),
        ("en-US", 1.0, 10.0, "Your tomato soup will be ready in 10 minutes."),
        ("es-ES", 1.0, 10.0, "Tu sopa de tomate estará lista en 10 minutos."),
        ("fr-FR", 2.0, 1.0, "Vos 2 soupes à la tomate seront prêtes dans 1 minute.")
    ])
    func responsesAreRenderedInTheUsersLanguage(locale: String, quantity: Double, wait: Double, expected: String) throws {
        let text = try Self.orderSoup.render(
            code: "success", properties: ["soup": .string("tomato"), "quantity": .number(quantity), "waitTime": .number(wait)],
            locale: ParlanceLocale(locale))
        #expect(text == expected)
    }

    @Test func responseErrorsSayWhatIsMissing() throws {
        #expect { try Self.orderSoup.render(code: "nope", properties: [:], locale: ParlanceLocale("en")) } throws: {
            "\($0)".contains("has no response 'nope'")
        }
        #expect { try Self.orderSoup.render(code: "success", properties: [:], locale: ParlanceLocale("de")) } throws: {
            "\($0)".contains("has no de template")
        }
    }

    @Test func examplesFillTheirSlots() {
        let es = Self.soupChef.examples(language: "es")
        #expect(es.first?.intent == "orderSoup")
        #expect(es.first?.phrases == ["Pide 2 sopas de tomate en Soup Chef", "Pide una sopa de tomate en Soup Chef"])
        #expect(Self.soupChef.examples(language: "de").isEmpty)
    }

    @Test(arguments: [
        (#"{"name": "x", "category": "teleport"}"#, "unknown category 'teleport'"),
        (#"{"name": "x", "parameters": [{"name": "a", "type": "colour"}]}"#, "unknown parameter type 'colour'"),
        (#"{"name": "x", "parameters": [{"name": "a", "type": "enum"}]}"#, "an enum parameter needs its cases"),
        (
            #"{"name": "x", "parameters": [{"name": "a", "type": "string"}], "phrases": {"en": ["do {b}"]}}"#,
            "names '{b}', which is not a parameter of x"
        ),
        (#"{"name": "x", "shortcutTypes": [{"parameters": ["z"], "title": {"en": "t"}}]}"#, "shortcut type names 'z'"),
        // A response template ICU cannot read is an error when the context loads.
        (
            #"{"name": "x", "responses": {"ready": {"success": true, "templates": {"fr": "Prête dans {minutes, plural, one {# minute}"}}}}"#,
            "response 'ready' (fr): bad message pattern"
        ),
        (
            #"{"name": "x", "responses": {"ready": {"success": true, "templates": {"en": "{n, plural, one {# soup}}"}}}}"#,
            "response 'ready' (en): bad message pattern"
        )
    ])
    func badDeclarationsAreClearErrors(json: String, message: String) {
        let context = #"{"apps": [{"name": "App", "intents": ["# + json + "]}]}"
        #expect { try ParserContext.decode(Data(context.utf8), file: "ctx.json") } throws: { error in
            "\(error)".contains("ctx.json") && "\(error)".contains(message)
        }
    }
}
