import Foundation
import Testing

@testable import ParlanceParser
@testable import ParlanceText

/// Awkward input gives a result with a reason, never a crash; many tasks share one parser.
@Suite struct ParserRobustnessTests {
    static let parser = try! IntentParser(context: .demo)
    static let reference = try! ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")

    @Test(arguments: ["", "   ", "!!! ,,, ???", "👍🏽👩🏽‍💻", "\u{202E}Bobo\u{202C}", "e\u{301}\u{301}\u{301}"])
    func emptyOrSymbolsOnly(text: String) throws {
        let result = try Self.parser.parse(text, locale: ParlanceLocale("en"), referenceTime: Self.reference)
        #expect(result.intent == nil)
        #expect(result.reason != nil)
    }

    @Test func tooLongIsRefusedWithAReason() throws {
        let text = String(repeating: "send a message to Bobo, saying hi, ", count: 100)
        let result = try Self.parser.parse(text, locale: ParlanceLocale("en"), referenceTime: Self.reference)
        #expect(result.intent == nil)
        #expect(result.reason?.contains("too long") == true)
    }

    @Test func unsupportedLanguageIsAClearError() {
        #expect {
            try Self.parser.parse("昨日ボボにメッセージを送って", locale: ParlanceLocale("ja"), referenceTime: Self.reference)
        } throws: { error in
            "\(error)".contains("parsing supports de, en, es, fr, it, pt")
        }
    }

    @Test func manyTasksShareOneParser() async throws {
        let texts = ["MonkeyChat Bobo send more bananas", "Start a Bananarific in MonkeyFit", "what's the weather"]
        let expected = try texts.map { try Self.parser.parse($0, locale: ParlanceLocale("en"), referenceTime: Self.reference) }
        try await withThrowingTaskGroup(of: (Int, ParseResult).self) { group in
            for n in 0..<120 {
                group.addTask { (n % 3, try Self.parser.parse(texts[n % 3], locale: ParlanceLocale("en"), referenceTime: Self.reference)) }
            }
            for try await (i, result) in group { #expect(result == expected[i]) }
        }
    }
}
