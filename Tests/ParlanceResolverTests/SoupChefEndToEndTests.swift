import Foundation
import Parlance
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceResolver

/// Issue 7's "done when", on the demo context: Soup Chef's custom intent parsed and resolved
/// in en, es, fr; the user's shortcut "sopa del día"; a donation deciding a tie, and its
/// deletion; the rendered responses.
@Suite struct SoupChefEndToEndTests {
    static let noon = try! ReferenceTime(iso8601: "2026-11-21T12:00:00Z")

    /// A parser and resolver over the demo context sharing one (fresh) donation log.
    static func pipeline(_ context: ParserContext = .demo) throws -> (ResolvingParser, DonationLog) {
        let log = DonationLog(context.donations)
        let parser = ResolvingParser(
            parser: try IntentParser(context: context, donations: log), resolver: Resolver(context: context, donations: log))
        return (parser, log)
    }

    static func parse(_ text: String, _ locale: String, with parser: ResolvingParser) throws -> ParseResult {
        try parser.parse(text, locale: ParlanceLocale(locale), referenceTime: noon)
    }

    @Test(arguments: [
        ("Order two tomato soups with Soup Chef", "en-US"),
        ("Soup Chef two tomato soups", "en-US"),
        ("Pide dos sopas de tomate en Soup Chef", "es-ES"),
        ("Soup Chef dos sopas de tomate", "es-MX"),
        ("Commande deux soupes à la tomate avec Soup Chef", "fr-FR"),
        ("Soup Chef deux soupes à la tomate", "fr-CA")
    ])
    func orderTwoTomatoSoups(text: String, locale: String) throws {
        let (parser, _) = try Self.pipeline()
        let result = try Self.parse(text, locale, with: parser)
        let intent = try #require(result.intent, "\(text): \(result.reason ?? "")")
        #expect(intent.domain == "custom")
        #expect(intent.name == "orderSoup")
        #expect(intent.app == "Soup Chef")
        #expect(intent.values("quantity").map(\.value) == [.number(2)])
        let soup = try #require(intent.values("soup").first)
        #expect(soup.value == .enumCase("tomato"))
        #expect(soup.resolution?.kind == .success)
        #expect(soup.resolution?.items.map(\.id) == ["tomato"])
        // The raw value is the words as said, found at its span.
        let span = try #require(soup.span)
        #expect(String(String.UnicodeScalarView(Array(text.unicodeScalars)[span.start..<span.end])) == soup.raw)
        #expect(intent.missing.isEmpty)
        #expect(result.explanation.source?.contains("Soup Chef orderSoup") == true)
    }

    @Test func theSoupIsRequired() throws {
        let (parser, _) = try Self.pipeline()
        for (text, locale) in [
            ("Order soup with Soup Chef", "en"), ("Pedir sopa en Soup Chef", "es"), ("Commander une soupe avec Soup Chef", "fr")
        ] {
            let intent = try #require(try Self.parse(text, locale, with: parser).intent, "\(text)")
            #expect(intent.name == "orderSoup")
            #expect(intent.missing.map(\.name) == ["soup"], "\(text)")
            #expect(intent.missing.first?.resolution.kind == .needsValue)
        }
    }

    @Test func aSlipInTheSoupIsConfirmed() throws {
        let (parser, _) = try Self.pipeline()
        let soup = try #require(try Self.parse("Order a tomatoe soup", "en", with: parser).intent?.values("soup").first)
        #expect(soup.resolution?.kind == .confirmationRequired)
        #expect(soup.resolution?.items.map(\.id) == ["tomato"])
    }

    @Test func theUsersPhraseRunsItsShortcut() throws {
        let (parser, _) = try Self.pipeline()
        for said in ["sopa del día", "Oye Siri, sopa del dia", "Sopa Del Día por favor", "sopa de dia"] {
            let result = try Self.parse(said, "es-ES", with: parser)
            let intent = try #require(result.intent, "\(said): \(result.reason ?? "")")
            #expect(intent.name == "orderSoup" && intent.app == "Soup Chef", "\(said)")
            #expect(intent.values("soup").map(\.value) == [.enumCase("tomato")])
            #expect(intent.values("soup").first?.raw == "tomate")
            #expect(intent.values("quantity").map(\.value) == [.number(1)])
            #expect(result.shortcut?.kind == .success)
            #expect(result.shortcut?.items.map(\.id) == ["soup-of-the-day"])
            #expect(result.explanation.decidedBy == "shortcut")
        }
        // Listened for in its own language only, and not matched by a different request.
        #expect(try Self.parse("sopa del día", "en", with: parser).shortcut == nil)
        #expect(try Self.parse("sopa de pollo", "es", with: parser).shortcut == nil)
    }

    @Test func aDonationDecidesATieAndItsDeletionUndoesIt() throws {
        let (parser, log) = try Self.pipeline()
        let cases = [("Order a chicken soup", "en-US"), ("Pide una sopa de pollo", "es-ES"), ("Commande une soupe au poulet", "fr-FR")]
        let before = try cases.map { try Self.parse($0.0, $0.1, with: parser) }
        for result in before {
            let soup = try #require(result.intent?.values("soup").first)
            #expect(soup.resolution?.kind == .disambiguation, "\(soup.raw)")
            #expect(Set(soup.resolution?.items.map(\.id) ?? []) == ["chicken", "chickenTortilla"])
        }
        try log.record(
            Donation(
                id: "d1", group: "orders", app: "Soup Chef", intent: "orderSoup",
                parameters: ["soup": .enumCase("chickenTortilla"), "quantity": .number(1)],
                date: try ReferenceTime(iso8601: "2026-11-20T19:30:00Z")))
        for (text, locale) in cases {
            let soup = try #require(try Self.parse(text, locale, with: parser).intent?.values("soup").first)
            #expect(soup.resolution?.kind == .confirmationRequired, "\(text)")
            #expect(soup.resolution?.items.map(\.id) == ["chickenTortilla"])
            let language = try ParlanceLocale(locale).language
            #expect(
                soup.resolution?.items.first?.display == Self.orderSoup.parameter("soup")?.caseName("chickenTortilla", language: language))
        }
        // An old donation alone is too weak to decide.
        try log.deleteAll()
        try log.record(
            Donation(
                id: "old", app: "Soup Chef", intent: "orderSoup", parameters: ["soup": .enumCase("chicken")],
                date: try ReferenceTime(iso8601: "2026-09-01T12:00:00Z")))
        #expect(try Self.parse(cases[0].0, cases[0].1, with: parser).intent?.values("soup").first?.resolution?.kind == .disambiguation)
        // Deleted by id, by group, or all: the results are what they were before, exactly.
        for deletion in [DonationEvent.deleteIDs(["d1", "old"]), .deleteGroup("orders"), .deleteAll] {
            try log.deleteAll()
            try log.record(
                Donation(
                    id: "d1", group: "orders", app: "Soup Chef", intent: "orderSoup", parameters: ["soup": .enumCase("chickenTortilla")],
                    date: Self.noon))
            #expect(
                try Self.parse(cases[0].0, cases[0].1, with: parser).intent?.values("soup").first?.resolution?.kind == .confirmationRequired
            )
            try log.apply(deletion)
            let after = try cases.map { try Self.parse($0.0, $0.1, with: parser) }
            #expect(after == before, "\(deletion)")
        }
    }

    static var orderSoup: CustomIntent { ParserContext.demo.apps.first { $0.name == "Soup Chef" }!.customIntents[0] }

    @Test func theResponsesAreRenderedForWhatWasParsed() throws {
        let (parser, _) = try Self.pipeline()
        for (text, locale, expected) in [
            ("Order two tomato soups with Soup Chef", "en-US", "Your 2 tomato soups will be ready in 10 minutes."),
            ("Pide una sopa de tomate en Soup Chef", "es-ES", "Tu sopa de tomate estará lista en 10 minutos."),
            ("Commande deux soupes à la tomate avec Soup Chef", "fr-FR", "Vos 2 soupes à la tomate seront prêtes dans 10 minutes.")
        ] {
            let intent = try #require(try Self.parse(text, locale, with: parser).intent)
            let quantity: Double =
                intent.values("quantity").first.map {
                    if case .number(let n) = $0.value { NSDecimalNumber(decimal: n).doubleValue } else { 1 }
                } ?? 1
            let soup = try #require(intent.values("soup").first?.resolution?.items.first?.id)
            let language = try ParlanceLocale(locale).language
            let rendered = try Self.orderSoup.render(
                code: "success",
                properties: [
                    "soup": .string(Self.orderSoup.parameter("soup")!.caseName(soup, language: language)), "quantity": .number(quantity),
                    "waitTime": .number(10)
                ],
                locale: ParlanceLocale(locale))
            #expect(rendered == expected)
        }
    }
}

/// Shortcuts beyond the demo: near-misses between two phrases, suggestions, context errors.
@Suite struct ShortcutTests {
    static func demoWith(_ shortcuts: [Shortcut]) -> ParserContext {
        var context = ParserContext.demo
        context.shortcuts = shortcuts
        return context
    }

    static let tomato = Shortcut(
        id: "a", phrase: "sopa del día", app: "Soup Chef", intent: "orderSoup",
        parameters: ["soup": .enumCase("tomato"), "quantity": .number(1)])
    static let clam = Shortcut(
        id: "b", phrase: "sopa del mar", app: "Soup Chef", intent: "orderSoup", parameters: ["soup": .enumCase("clam")])

    @Test func aNearMissBetweenTwoShortcutsIsAskedNotGuessed() throws {
        let parser = try IntentParser(
            context: Self.demoWith([
                Self.tomato, Self.clam, Shortcut(id: "c", phrase: "sopa del dio", app: "Soup Chef", intent: "orderSoup", parameters: [:])
            ]))
        let es = try ParlanceLocale("es")
        // Said exactly: that one, even with another one letter away.
        let exact = try parser.parse("sopa del día", locale: es, referenceTime: SoupChefEndToEndTests.noon)
        #expect(exact.shortcut?.kind == .success && exact.shortcut?.items.map(\.id) == ["a"])
        // One letter from two phrases: a choice.
        let near = try parser.parse("sopa del dib", locale: es, referenceTime: SoupChefEndToEndTests.noon)
        #expect(near.intent == nil)
        #expect(near.shortcut?.kind == .disambiguation)
        #expect(Set(near.shortcut?.items.map(\.id) ?? []) == ["a", "c"])
        #expect(near.alternatives.count == 2)
        #expect(near.reason?.contains("which one") == true)
        // One letter from one phrase: that one.
        let slip = try parser.parse("sopa del mat", locale: es, referenceTime: SoupChefEndToEndTests.noon)
        #expect(slip.shortcut?.kind == .success && slip.intent?.values("soup").map(\.value) == [.enumCase("clam")])
        // Too far from all: no shortcut.
        #expect(try parser.parse("sopa del norte", locale: es, referenceTime: SoupChefEndToEndTests.noon).shortcut == nil)
    }

    @Test func aShortcutWithoutAPhraseGetsSuggestions() throws {
        let context = ParserContext.demo
        let chowder = try #require(context.shortcuts.first { $0.phrase == nil })
        #expect(context.suggestedPhrases(for: chowder, language: "en").first == "Order 2 clam chowder soups with Soup Chef")
        #expect(context.suggestedPhrases(for: chowder, language: "es").first == "Pide 2 sopas de crema de almejas en Soup Chef")
        #expect(context.suggestedPhrases(for: chowder, language: "fr").contains("Commander 2 aux palourdes"))
        // Suggestions say what they ask for: each parses back to the shortcut's intent and values.
        let parser = try IntentParser(context: context)
        for language in ["en", "es", "fr"] {
            for phrase in context.suggestedPhrases(for: chowder, language: language) where phrase.contains("Soup Chef") {
                let intent = try #require(
                    try parser.parse(phrase, locale: ParlanceLocale(language), referenceTime: SoupChefEndToEndTests.noon).intent,
                    "\(phrase)")
                #expect(intent.values("soup").map(\.value) == [.enumCase("clam")], "\(phrase)")
                #expect(intent.values("quantity").map(\.value) == [.number(2)], "\(phrase)")
            }
        }
        // A suggestion another shortcut already uses is not offered.
        var taken = context
        taken.shortcuts.append(
            Shortcut(id: "x", phrase: "Order 2 clam chowder soups with Soup Chef", app: "Soup Chef", intent: "orderSoup", parameters: [:]))
        #expect(!taken.suggestedPhrases(for: chowder, language: "en").contains("Order 2 clam chowder soups with Soup Chef"))
        // `examples` lists the shortcuts and the suggestions.
        let examples = context.examples(app: "Soup Chef", language: "es")
        #expect(examples.contains { $0.intent == "shortcuts" && $0.phrases == ["sopa del día"] })
        #expect(examples.contains { $0.intent == "suggested for friday-chowder" })
    }

    @Test(arguments: [
        (#"{"id": "s", "phrase": "x", "app": "Nope", "intent": "orderSoup"}"#, "unknown app 'Nope'"),
        (#"{"id": "s", "phrase": "x", "app": "Soup Chef", "intent": "sendMessage"}"#, "Soup Chef does not handle 'sendMessage'"),
        (
            #"{"id": "s", "phrase": "x", "app": "Soup Chef", "intent": "orderSoup", "parameters": {"size": 2}}"#,
            "orderSoup has no parameter 'size'"
        ),
        (
            #"{"id": "s", "phrase": "x", "app": "Soup Chef", "intent": "orderSoup", "parameters": {"soup": "pizza"}}"#,
            "'pizza' is not a case of orderSoup.soup"
        ),
        (#"{"id": "s", "phrase": " ", "app": "Soup Chef", "intent": "orderSoup"}"#, "a shortcut phrase cannot be empty")
    ])
    func badShortcutsAreClearErrors(json: String, message: String) throws {
        let context =
            #"{"apps": [{"name": "Soup Chef", "intents": [{"name": "orderSoup", "parameters": [{"name": "soup", "type": "enum", "cases": [{"id": "tomato", "names": {"en": ["tomato"]}}]}]}]}], "shortcuts": ["#
            + json + "]}"
        #expect { try ParserContext.decode(Data(context.utf8), file: "ctx.json") } throws: { "\($0)".contains(message) }
    }
}

/// A custom intent's object parameter resolved through its vocabulary type, and donations
/// deciding between contacts for a SiriKit intent.
@Suite struct CustomObjectAndContactDonationTests {
    static let context = try! ParserContext.decode(
        Data(
            """
            {"apps": [
              {"name": "CoffeeMonkey", "intents": [{"name": "orderCoffee", "category": "order",
                "parameters": [{"name": "drink", "type": "enum", "required": true, "cases": [{"id": "latte", "names": {"en": ["latte"]}}]},
                               {"name": "store", "type": "object", "vocabulary": "storeName"}],
                "phrases": {"en": ["order a {drink} at {store} with CoffeeMonkey"]}}],
               "userVocabulary": {"storeName": [{"id": "s1", "phrase": "Main Street"}, {"id": "s2", "phrase": "Airport Terminal 2"}]}},
              {"name": "MonkeyChat", "intents": ["sendMessage"],
               "userVocabulary": {"contactName": [{"id": "great", "phrase": "Bobo the Great"}, {"id": "jr", "phrase": "Bobo Jr."}]}}]}
            """.utf8), file: "objects.json")

    @Test func anObjectResolvesThroughItsVocabulary() throws {
        let (parser, _) = try SoupChefEndToEndTests.pipeline(Self.context)
        let intent = try #require(
            try SoupChefEndToEndTests.parse("Order a latte at main street with CoffeeMonkey", "en", with: parser).intent)
        let store = try #require(intent.values("store").first)
        #expect(store.value == .text("main street"))
        #expect(store.resolution?.kind == .success)
        #expect(store.resolution?.items.map(\.id) == ["s1"])
        let airport = try #require(
            try SoupChefEndToEndTests.parse("order a latte at the airport with CoffeeMonkey", "en", with: parser).intent?.values("store")
                .first)
        #expect(airport.resolution?.items.first?.id == "s2", "\(String(describing: airport.resolution))")
        // The object type is a vocabulary type queries may name.
        let answer = try Resolver(context: Self.context).resolve(
            "Main Street", app: "CoffeeMonkey", type: "storeName", locale: ParlanceLocale("en"))
        #expect(answer.resolution.kind == .success)
    }

    @Test func theContactMessagedMostIsOfferedForConfirmation() throws {
        let (parser, log) = try SoupChefEndToEndTests.pipeline(Self.context)
        let text = "Send a message to Bobo saying hi"
        let before = try SoupChefEndToEndTests.parse(text, "en", with: parser)
        #expect(before.intent?.values("recipients").first?.resolution?.kind == .disambiguation)
        for n in 0..<3 {
            try log.record(
                Donation(
                    id: "m\(n)", app: "MonkeyChat", intent: "sendMessage", parameters: ["recipients": .text("jr")],
                    date: SoupChefEndToEndTests.noon))
        }
        let recipient = try #require(try SoupChefEndToEndTests.parse(text, "en", with: parser).intent?.values("recipients").first)
        #expect(recipient.resolution?.kind == .confirmationRequired)
        #expect(recipient.resolution?.items.map(\.id) == ["jr"])
        #expect(recipient.resolution?.reason?.contains("chosen most") == true)
        try log.delete(ids: ["m0", "m1", "m2"])
        #expect(try SoupChefEndToEndTests.parse(text, "en", with: parser) == before)
    }
}
