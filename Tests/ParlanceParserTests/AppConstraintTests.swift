import Foundation
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser

/// Apps that are not there (well-known services, installed apps without intents), the named
/// app as a constraint on the readings, and the context checks that go with them.
@Suite struct AppConstraintTests {
    static let time = try! ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")

    /// A device: a messaging app, a payments-only app, a rides app; Strava installed without intents.
    static let device = try! ParserContext.decode(
        Data(
            """
            {"apps": [
              {"name": "Chatterbox", "intents": ["sendMessage", "searchForMessages"], "userVocabulary": {"contactName": ["Nadia", "Paul", "Lydia Brown"]}},
              {"name": "Coinpurse", "intents": ["sendPayment", "requestPayment"], "userVocabulary": {"contactName": ["Marta", "Paul"]}},
              {"name": "Hopper", "intents": ["requestRide", "getRideStatus"]}],
             "installedApps": ["Strava", "Notion"]}
            """.utf8), file: "device.json")

    static let noApps = try! ParserContext.decode(Data(#"{"apps": []}"#.utf8), file: "no-apps.json")

    func parse(_ text: String, _ locale: String = "en-US", context: ParserContext = device) throws -> ParseResult {
        try IntentParser(context: context).parse(text, locale: ParlanceLocale(locale), referenceTime: Self.time)
    }

    @Test(arguments: [
        ("Send a message to Nadia on WhatsApp saying I'm late", "en-US", "WhatsApp"),
        ("get me an Uber to the airport", "en-US", "Uber"),
        ("Venmo Paul ten dollars", "en-US", "Venmo"),
        ("WhatsApp Nadia I'm on my way", "en-US", "WhatsApp"),
        ("can you pay Paul 5 dollars through PayPal please", "en-US", "PayPal"),
        ("start a run on Strava", "en-US", "Strava"),
        ("hazme un Bizum de cinco euros a Marta", "es-ES", "Bizum"),
        ("pídeme un Cabify para ir al aeropuerto", "es-ES", "Cabify"),
        ("commande un Uber pour la gare", "fr-FR", "Uber"),
        ("envoie un message à Nadia sur Telegram", "fr-FR", "Telegram"),
        ("ruf Paul über Signal an", "de-DE", "Signal"),
        ("manda un messaggio a Nadia su WhatsApp", "it-IT", "WhatsApp"),
        ("faz um Pix de 50 reais pra Marta", "pt-BR", "Pix"),
        // The name made a verb, and a name that is also a word leading with a contact after it.
        ("whatsappea a Nadia que llego tarde", "es-ES", "WhatsApp"),
        ("tu peux venmoer 10 dollars à Paul ?", "fr-FR", "Venmo"),
        ("Telegram Paul: running late", "en-US", "Telegram"),
        ("Telegram a Nadia: llego en diez minutos", "es-ES", "Telegram")
    ])
    func anAppThatIsNotThereGetsNoIntent(text: String, locale: String, app: String) throws {
        let result = try parse(text, locale)
        #expect(result.intent == nil, "\(text) → \(String(describing: result.intent?.name)) via \(String(describing: result.intent?.app))")
        #expect(result.unavailableApp == app)
        #expect(result.reason == "\(app) is not among this user's apps")
    }

    @Test func aNameThatIsAlsoAServiceCountsOnlyWithACue() throws {
        // "Lydia" is a payment service in France and a first name: alone it is a person.
        let named = try parse("send 20 dollars to Lydia")
        #expect(named.unavailableApp == nil)
        #expect(named.intent?.name == "sendPayment")
        // After a connective of the mention rule it is the service.
        #expect(try parse("pay Marta 20 dollars with Lydia").unavailableApp == "Lydia")
        // A contact whose name it is stays a contact.
        #expect(try parse("message Lydia Brown saying hello").unavailableApp == nil)
        // A word that starts like such a name is that word ("signale": flag, not Signal).
        #expect(try parse("signale le message de Paul", "fr-FR").unavailableApp == nil)
        #expect(try parse("signal that I'm leaving in the group chat").unavailableApp == nil)
    }

    @Test func theNamedAppDecidesBetweenReadings() throws {
        // Coinpurse handles payments only: the payment reading wins over the messaging one.
        let result = try parse("Coinpurse Marta twenty dollars for dinner")
        #expect(result.intent?.name == "sendPayment")
        #expect(result.intent?.app == "Coinpurse")
        // No template reads this one: the trained tier, restricted to Coinpurse's intents, reads
        // a payment (which of the two is the classifier's call: "cobra a Sophie 22 euros de la
        // cena" is a request), never "Coinpurse does not handle sendMessage".
        let es = try parse("Coinpurse a Marta veinte euros de la cena", "es-ES")
        #expect(es.intent?.domain == "payments", "\(String(describing: es.reason))")
        #expect(es.intent?.app == "Coinpurse")
        #expect(es.explanation.decidedBy == "trained")
        // Said with a template's words, the reading is the payment to Marta.
        let template = try parse("Coinpurse a Marta veinte euros por la cena", "es-ES")
        #expect(template.intent?.name == "sendPayment" && template.intent?.app == "Coinpurse", "\(String(describing: template.reason))")
    }

    @Test func anAppOfTheContextThatHandlesNoneOfTheReadingsIsNamedInTheReason() throws {
        let result = try parse("send a message to Nadia with Hopper saying hi")
        #expect(result.intent == nil)
        #expect(result.unavailableApp == nil)
        #expect(result.reason?.contains("Hopper") == true)
    }

    @Test func withAContextOfNoAppsTheServiceIsReadAndTheAppIsNull() throws {
        let pay = try parse("Venmo Paul ten dollars", context: Self.noApps)
        #expect(pay.intent?.name == "sendPayment")
        #expect(pay.intent?.app == nil)
        #expect(pay.unavailableApp == nil)
        let ride = try parse("get me an Uber to the station", context: Self.noApps)
        #expect(ride.intent?.name == "requestRide")
        #expect(ride.intent?.app == nil)
        #expect(ride.intent?.parameters.allSatisfy { !$0.raw.contains("Uber") } == true, "\(String(describing: ride.intent?.parameters))")
    }

    @Test func anInstalledAppThatIsAlsoAnAppOfTheContextIsAnError() throws {
        let json =
            #"{"apps": [{"name": "Chatterbox", "alternativeNames": [{"name": "Chatter Box"}], "intents": ["sendMessage"]}], "installedApps": ["Strava", "chatter box"]}"#
        #expect {
            _ = try ParserContext.decode(Data(json.utf8), file: "bad.json")
        } throws: { error in
            let text = "\(error)"
            return text.contains("installedApps[1]") && text.contains("chatter box") && text.contains("Chatterbox")
                && text.contains("bad.json")
        }
    }

    @Test(arguments: [
        (
            #"{"apps": [{"name": "Chatterbox", "intents": ["sendMessage"]}, {"name": "chatter box", "intents": ["startCall"]}]}"#,
            "also the name of apps[0]"
        ),
        (
            #"{"apps": [{"name": "Chatterbox", "intents": ["sendMessage"]}, {"name": "Dialer", "alternativeNames": [{"name": "CHATTERBOX"}], "intents": ["startCall"]}]}"#,
            "also the name of apps[0]"
        ),
        (#"{"apps": [{"name": "Chatterbox", "intents": []}]}"#, "no intents"),
        (
            #"{"apps": [{"name": "Chatterbox", "intents": ["sendMessage"], "userVocabulary": {"contactNames": ["Nadia"]}}]}"#,
            "no vocabulary type 'contactNames'"
        ),
        (
            #"{"apps": [{"name": "Chatterbox", "intents": ["sendMessage"], "userVocabulary": {"contactName": [{"id": "n1", "phrase": "Nadia"}, {"id": "n1", "phrase": "Rob"}]}}]}"#,
            "two items have the id 'n1'"
        )
    ])
    func contextsThatCannotBeMeantAreErrors(json: String, message: String) throws {
        #expect {
            _ = try ParserContext.decode(Data(json.utf8), file: "bad.json")
        } throws: { error in
            "\(error)".contains(message) && "\(error)".contains("bad.json")
        }
    }

    @Test func aServiceTheUserHasAsAnAppIsThatApp() throws {
        let context = try ParserContext.decode(
            Data(#"{"apps": [{"name": "WhatsApp", "intents": ["sendMessage"], "userVocabulary": {"contactName": ["Nadia"]}}]}"#.utf8),
            file: "wa.json")
        let result = try parse("send a message to Nadia on WhatsApp saying hi", context: context)
        #expect(result.intent?.app == "WhatsApp")
        #expect(result.unavailableApp == nil)
    }
}

/// An app mention is never inside a name or a place: not when it is left in place, nor across
/// the gap it leaves when it is taken out.
@Suite struct MentionBoundaryTests {
    static let context = try! ParserContext.decode(
        Data(
            """
            {"apps": [{"name": "Tinkle", "intents": ["startCall"], "userVocabulary": {"contactName": ["Marta Ruiz", "Paul"]}},
                      {"name": "Hopper", "intents": ["requestRide"]}]}
            """.utf8), file: "device.json")

    @Test(arguments: [
        ("please call Marta Ruiz with Tinkle straight away", "contacts", "Marta Ruiz"),
        ("call Paul on Tinkle right now please", "contacts", "Paul")
    ])
    func noValueSpansTheAppMention(text: String, parameter: String, value: String) throws {
        let result = try IntentParser(context: Self.context).parse(
            text, locale: ParlanceLocale("en-US"), referenceTime: AppConstraintTests.time)
        // Known regression of the trained tier retrained with the second-wave domains (issue 13):
        // "straight away" tips "please call Marta Ruiz … straight away" into out of domain. It is
        // recorded as a known issue; once the request parses again, it is checked as the others.
        guard result.intent != nil || !text.contains("straight away") else {
            withKnownIssue("the trained tier rejects a call said with 'straight away' (issue 13)") {
                Issue.record("\(text): \(result.reason ?? "")")
            }
            return
        }
        let frame = try #require(result.intent, "\(text): \(result.reason ?? "")")
        #expect(frame.app == "Tinkle")
        let values = frame.parameters.filter { $0.name == parameter }.map(\.raw)
        #expect(values.allSatisfy { !$0.contains("Tinkle") }, "\(values)")
        #expect(values.contains(value), "\(values)")
    }
}

/// Names go where the user's vocabulary puts them: a group name to `groupName`, an app's
/// option that contains the app's name to the option, not the app.
@Suite struct VocabularyPlacementTests {
    static let context = try! ParserContext.decode(
        Data(
            """
            {"apps": [{"name": "Chatterbox", "intents": ["sendMessage"], "userVocabulary": {"contactName": ["Nadia", "Paul"], "contactGroupName": ["Book Club", "Los Primos"]}},
                      {"name": "Hopper", "intents": ["requestRide"], "appVocabularyItems": {"rideOptionName": ["Hopper Max", "Shared"]}}]}
            """.utf8), file: "device.json")

    func parse(_ text: String) throws -> IntentFrame? {
        try IntentParser(context: Self.context).parse(text, locale: ParlanceLocale("en-US"), referenceTime: AppConstraintTests.time).intent
    }

    @Test func aGroupSaidWhereAPersonIsExpectedIsTheGroup() throws {
        let frame = try #require(try parse("Chatterbox Book Club: the meeting moves to Friday"))
        #expect(frame.values("groupName").map(\.raw) == ["Book Club"])
        #expect(frame.values("recipients").isEmpty)
        // A person stays a person.
        let person = try #require(try parse("text Nadia that I'm bringing the cake"))
        #expect(person.values("recipients").map(\.raw) == ["Nadia"])
    }

    @Test func anOptionNamedAfterTheAppIsTheOption() throws {
        let frame = try #require(try parse("get me a Hopper Max to the stadium"))
        #expect(frame.name == "requestRide")
        #expect(frame.app == "Hopper")
        #expect(frame.values("rideOptionName").map(\.raw) == ["Hopper Max"])
    }
}
