import Foundation
import Parlance
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceResolver

/// The demo cases, on the built-in demo context and variations of it.
@Suite struct DemoResolutionTests {
    static let resolver = Resolver(context: .demo)

    @Test func plainBoboIsTheContactNamedJustBobo() throws {
        // The demo has Bobo, Bobo the Great, Bobo Jr. and Little Bobo: the whole name "Bobo"
        // is said for exactly one of them, so it wins over the partial matches (documented
        // in ResolutionPolicy, step 2).
        let r = try Self.resolver.resolve("Bobo", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution
        #expect(r.kind == .success)
        #expect(Support.ids(r) == ["bobo-1"])
    }

    @Test func boboWithoutAPlainBoboAsksWhichOne() throws {
        let demo = ParserContext.demo.apps[0].userVocabulary["contactName"]!.filter { $0.id != "bobo-1" }
        let resolver = Resolver(context: try Support.context(contacts: demo))
        let r = try resolver.resolve("Bobo", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution
        #expect(r.kind == .disambiguation)
        #expect(Set(Support.ids(r)) == ["bobo-great", "bobo-jr", "little-bobo"])
        // Best first: scores never rise along the list.
        #expect(zip(r.items, r.items.dropFirst()).allSatisfy { $0.score >= $1.score })
    }

    @Test func boboTheGrateIsConfirmed() throws {
        let r = try Self.resolver.resolve("Bobo the Grate", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution
        #expect(r.kind == .confirmationRequired)
        #expect(Support.ids(r) == ["bobo-great"])
    }

    @Test func eightyBobosNeedMoreDetails() throws {
        let surnames = (0..<80).map { "Surname\(String(UnicodeScalar(UInt8(65 + $0 % 26))))\($0)" }
        let bobos = surnames.enumerated().map { VocabularyItem("bobo-\($0.offset)", "Bobo \($0.element)") }
        let resolver = Resolver(context: try Support.context(contacts: bobos))
        let r = try resolver.resolve("Bobo", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution
        #expect(r.kind == .needsMoreDetails)
        #expect(r.items.isEmpty)
        // A full name among them is still found.
        let one = try resolver.resolve("Bobo \(surnames[41])", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution
        #expect(one.kind == .success && Support.ids(one) == ["bobo-41"])
        // Eighty contacts all called exactly Bobo: too many to list as well.
        let same = Resolver(context: try Support.context(contacts: (0..<80).map { VocabularyItem("b\($0)", "Bobo") }))
        #expect(try same.resolve("Bobo", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution.kind == .needsMoreDetails)
        // Ten of them: a disambiguation of ten.
        let ten = Resolver(context: try Support.context(contacts: (0..<10).map { VocabularyItem("b\($0)", "Bobo") }))
        let tenAnswer = try ten.resolve("Bobo", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution
        #expect(tenAnswer.kind == .disambiguation && tenAnswer.items.count == 10)
        // Priority breaks the tie: the first of the ordered set comes first.
        #expect(tenAnswer.items.first?.id == "b0")
    }

    @Test func bananarificSaidInPieces() throws {
        for said in ["banana rific", "Bananarific", "ba nana ri fica", "bananarífic"] {
            let r = try Self.resolver.resolve(said, app: "MonkeyFit", type: "workoutActivityName", locale: Support.en).resolution
            #expect(r.kind == .success, "\(said)")
            #expect(Support.ids(r) == ["bananarific"], "\(said)")
        }
    }

    @Test func parsingAttachesResolutions() throws {
        let parser = try ResolvingParser(context: .demo)
        let result = try parser.parse(
            "MonkeyChat Bobo the Great send more bananas", locale: Support.en,
            referenceTime: try ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00"))
        let recipient = try #require(result.intent?.values("recipients").first)
        #expect(recipient.resolution?.kind == .success)
        #expect(recipient.resolution?.items.first?.id == "bobo-great")
        // Content has no vocabulary type: no resolution.
        #expect(result.intent?.values("content").first?.resolution == nil)
        // A request without its required recipient: needsValue in `missing`.
        let bare = try parser.parse("Send a message with MonkeyChat", locale: Support.en, referenceTime: .now())
        #expect(bare.intent?.missing.map(\.name) == ["recipients"])
        #expect(bare.intent?.missing.first?.resolution.kind == .needsValue)
        // And the output record carries it (records.md output, extended).
        let line = try ParlanceJSON.line(OutputRecord(id: "1", locale: "en-US", text: "x", result: result, explain: false))
        #expect(line.contains("\"resolution\":{\"items\":[{\"display\":\"Bobo the Great\",\"id\":\"bobo-great\""))
    }

    @Test func unknownAppAndTypeAreClearErrors() {
        #expect { try Self.resolver.resolve("Bobo", app: "Nope", type: "contactName", locale: Support.en) } throws: { error in
            "\(error)" == "unknown app 'Nope': the context has MonkeyChat, MonkeyFit, MonkeyNotes, MonkeyBank, Soup Chef"
        }
        #expect { try Self.resolver.resolve("Bobo", app: "MonkeyChat", type: "contactNames", locale: Support.en) } throws: { error in
            "\(error)".hasPrefix("unknown vocabulary type 'contactNames': expected one of contactName,")
        }
    }

    @Test func anAppWithoutThatVocabularyIsUnsupportedWithAReason() throws {
        let r = try Self.resolver.resolve("Family", app: "MonkeyChat", type: "contactGroupName", locale: Support.en).resolution
        #expect(r.kind == .unsupported)
        #expect(r.reason == "MonkeyChat has no contactGroupName vocabulary")
    }
}
