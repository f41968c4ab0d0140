import Foundation
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser

/// Donations in parsing: the app the user uses for an intent, when none is named and several
/// could; deletion by id, group or all; the journal file the command line reads.
@Suite struct DonationTests {
    static let noon = try! ReferenceTime(iso8601: "2026-11-21T12:00:00Z")
    static let en = try! ParlanceLocale("en-US")

    /// Two messaging apps that both know Bobo.
    static let context = try! ParserContext.decode(
        Data(
            """
            {"apps": [
              {"name": "MonkeyChat", "intents": ["sendMessage"], "userVocabulary": {"contactName": ["Bobo"]}},
              {"name": "BananaMail", "intents": ["sendMessage"], "userVocabulary": {"contactName": ["Bobo"]}}]}
            """.utf8), file: "two-apps.json")

    static func message(_ id: String, app: String, group: String? = nil, at date: String = "2026-11-21T09:00:00Z") throws -> Donation {
        Donation(
            id: id, group: group, app: app, intent: "sendMessage", parameters: ["recipients": .text("Bobo")],
            date: try ReferenceTime(iso8601: date))
    }

    @Test func theAppUsedOftenAndRecentlyTakesARequestThatNamesNone() throws {
        let log = DonationLog()
        let parser = try IntentParser(context: Self.context, donations: log)
        let text = "Send a message to Bobo saying I am on my way"
        let before = try parser.parse(text, locale: Self.en, referenceTime: Self.noon)
        #expect(before.intent?.name == "sendMessage")
        #expect(before.intent?.app == nil, "two apps handle it and none was named")

        try log.record(try Self.message("m1", app: "BananaMail", group: "chat-bobo"))
        let after = try parser.parse(text, locale: Self.en, referenceTime: Self.noon)
        #expect(after.intent?.app == "BananaMail")
        #expect(after.explanation.notes.contains { $0.contains("app BananaMail from donations") })
        // Naming the app still decides.
        #expect(
            try parser.parse("Send a message to Bobo on MonkeyChat saying hi", locale: Self.en, referenceTime: Self.noon).intent?.app
                == "MonkeyChat")
        // Used as often in both: no clear lead, no app.
        try log.record(try Self.message("m2", app: "MonkeyChat", group: "chat-bobo"))
        #expect(try parser.parse(text, locale: Self.en, referenceTime: Self.noon).intent?.app == nil)
        // Only one, but two months old: too faint to decide.
        try log.deleteAll()
        try log.record(try Self.message("old", app: "BananaMail", at: "2026-09-21T09:00:00Z"))
        #expect(try parser.parse(text, locale: Self.en, referenceTime: Self.noon).intent?.app == nil)

        // Deleted by id, by group, all: afterwards the result is exactly what it was before.
        for deletion in [DonationEvent.deleteIDs(["m1", "m2", "old"]), .deleteGroup("chat-bobo"), .deleteAll] {
            try log.deleteAll()
            try log.record(try Self.message("m1", app: "BananaMail", group: "chat-bobo"))
            try log.record(try Self.message("m2", app: "BananaMail", group: "chat-bobo"))
            #expect(try parser.parse(text, locale: Self.en, referenceTime: Self.noon).intent?.app == "BananaMail")
            try log.apply(deletion)
            #expect(log.all.isEmpty)
            #expect(try parser.parse(text, locale: Self.en, referenceTime: Self.noon) == before, "\(deletion)")
        }
    }

    @Test func weightsGrowWithFrequencyAndFadeWithAge() throws {
        let log = DonationLog()
        let now = Self.noon.secondsSince1970
        #expect(log.weight(app: "BananaMail", intent: "sendMessage", at: now) == 0)
        try log.record(try Self.message("a", app: "BananaMail", at: "2026-11-21T12:00:00Z"))
        #expect(abs(log.weight(app: "BananaMail", intent: "sendMessage", at: now) - 0.5) < 1e-9)
        try log.record(try Self.message("b", app: "BananaMail", at: "2026-11-21T12:00:00Z"))
        #expect(abs(log.weight(app: "BananaMail", intent: "sendMessage", at: now) - 2.0 / 3) < 1e-9)
        try log.deleteAll()
        try log.record(try Self.message("c", app: "BananaMail", at: "2026-11-07T12:00:00Z"))  // one half-life ago
        #expect(abs(log.weight(app: "BananaMail", intent: "sendMessage", at: now) - 0.5 / 1.5) < 1e-9)
        // A value, by id or by text, folded.
        #expect(log.weight(app: "BananaMail", intent: "sendMessage", parameter: "recipients", value: "BOBO", at: now) > 0)
        #expect(log.weight(app: "BananaMail", intent: "sendMessage", parameter: "recipients", value: "Lulu", at: now) == 0)
        // Recording the same id again replaces it.
        try log.record(try Self.message("c", app: "MonkeyChat"))
        #expect(log.all.map(\.app) == ["MonkeyChat"])
    }

    @Test func aJournalIsReplayedInOrderAndItsErrorsNameTheLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("journal.jsonl")
        let donate =
            #"{"donate": {"id": "ID", "group": "G", "app": "BananaMail", "intent": "sendMessage", "parameters": {"recipients": "Bobo"}, "date": "2026-11-20T10:00:00+01:00"}}"#
        func line(_ id: String, _ group: String) -> String {
            donate.replacingOccurrences(of: "ID", with: id).replacingOccurrences(of: "\"G\"", with: "\"\(group)\"")
        }
        try [line("a", "x"), line("b", "y"), line("c", "y"), #"{"delete": {"group": "y"}}"#, line("d", "x"), #"{"delete": {"ids": ["a"]}}"#]
            .joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        let log = DonationLog()
        try log.replay(contentsOf: url, context: Self.context)
        #expect(log.all.map(\.id) == ["d"])
        #expect(log.all.first?.time == (try ReferenceTime(iso8601: "2026-11-20T09:00:00Z")).secondsSince1970)

        for (bad, message) in [
            (#"{"delete": {}}"#, "line 2: "),
            (
                #"{"donate": {"id": "z", "app": "BananaMail", "intent": "sendMessage", "date": "yesterday"}}"#,
                "'yesterday' is not an ISO 8601 date"
            ),
            (line("z", "x").replacingOccurrences(of: "BananaMail", with: "Nope"), "no app 'Nope' handling 'sendMessage'"),
            ("not json", "line 2")
        ] {
            try [line("e", "x"), bad].joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
            let fresh = DonationLog()
            #expect { try fresh.replay(contentsOf: url, context: Self.context) } throws: {
                "\($0)".contains(message) && "\($0)".contains("journal.jsonl")
            }
            #expect(fresh.all.isEmpty, "a journal with an error applies nothing")
        }
    }
}

/// Two apps declaring the same custom intent with the same phrases: with no app named, the
/// parser asks which app; a donation decides; its deletion brings the question back.
@Suite struct CustomIntentTieTests {
    static let context: ParserContext = {
        let intent =
            #"{"name": "orderSoup", "parameters": [{"name": "soup", "type": "enum", "cases": [{"id": "tomato", "names": {"en": ["tomato"]}}]}, {"name": "quantity", "type": "integer"}], "phrases": {"en": ["order {quantity} {soup} soups with APP"]}}"#
        let json = #"{"apps": [{"name": "Soup Chef", "intents": [I1]}, {"name": "Soup Master", "intents": [I2]}]}"#
            .replacingOccurrences(of: "I1", with: intent.replacingOccurrences(of: "APP", with: "Soup Chef"))
            .replacingOccurrences(of: "I2", with: intent.replacingOccurrences(of: "APP", with: "Soup Master"))
        return try! ParserContext.decode(Data(json.utf8), file: "two-soup-apps.json")
    }()

    @Test func aDonationDecidesWhichAppOrdersTheSoup() throws {
        let log = DonationLog()
        let parser = try IntentParser(context: Self.context, donations: log)
        let text = "Order two tomato soups"
        let before = try parser.parse(text, locale: DonationTests.en, referenceTime: DonationTests.noon)
        #expect(before.intent == nil)
        #expect(before.reason == "orderSoup of which app: Soup Chef, Soup Master?")
        #expect(Set(before.alternatives.compactMap(\.app)) == ["Soup Chef", "Soup Master"])
        // Named, no question.
        #expect(
            try parser.parse("Order two tomato soups with Soup Master", locale: DonationTests.en, referenceTime: DonationTests.noon).intent?
                .app == "Soup Master")

        try log.record(
            Donation(id: "o1", app: "Soup Master", intent: "orderSoup", parameters: ["soup": .enumCase("tomato")], date: DonationTests.noon)
        )
        let after = try parser.parse(text, locale: DonationTests.en, referenceTime: DonationTests.noon)
        #expect(after.intent?.app == "Soup Master")
        #expect(after.intent?.values("quantity").map(\.value) == [.number(2)])
        #expect(after.explanation.notes.contains { $0.contains("donations: orderSoup weighs 0.5") })

        try log.delete(ids: ["o1"])
        #expect(try parser.parse(text, locale: DonationTests.en, referenceTime: DonationTests.noon) == before)
    }
}
