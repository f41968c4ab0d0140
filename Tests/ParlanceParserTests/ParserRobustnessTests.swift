import Foundation
import Testing

@testable import ParlanceContext
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

    /// Inputs the fuzz harnesses found crashing (Fuzz/regressions/FuzzPlist/): a binary
    /// property list holding a set ended the process inside Foundation on Linux.
    @Test func propertyListsThatCrashedFoundationAreErrors() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz/regressions/FuzzPlist")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        #expect(!files.isEmpty)
        for file in files {
            let data = try Data(contentsOf: file)
            #expect(throws: ContextError.self) { try AppIntentVocabulary.decode(data, file: file.lastPathComponent) }
            #expect(throws: ContextError.self) {
                try IntentDefinitionFile.decode(data, file: file.lastPathComponent, strings: [:], baseLanguage: "en")
            }
        }
        // The same list with its set turned back into an array reads (the guard refuses only sets).
        let crash = try Data(contentsOf: files.first { $0.lastPathComponent.hasPrefix("crash-eaab") }!)
        #expect(throws: PropertyListGuard.Refused.self) { try PropertyListGuard.check(crash) }
        var repaired = crash
        repaired[repaired.startIndex + 568] = 0xA2
        #expect(throws: Never.self) { try PropertyListGuard.check(repaired) }
        // Foundation reads "bplist07" as binary too: another version is refused, not passed on.
        var otherVersion = crash
        otherVersion[otherVersion.startIndex + 7] = UInt8(ascii: "7")
        #expect(throws: PropertyListGuard.Refused.self) { try PropertyListGuard.check(otherVersion) }
        #expect(throws: PropertyListGuard.Refused.self) {
            try PropertyListGuard.check(repaired.prefix(6) + Data("01".utf8) + repaired.dropFirst(8))
        }
    }

    /// An error names the kind of file it is about, not "context file" for all of them.
    @Test func errorsNameTheKindOfFile() throws {
        let damaged = Data("bplist07".utf8) + Data(repeating: 0, count: 40)
        do {
            _ = try AppIntentVocabulary.decode(damaged, file: "fr.lproj/AppIntentVocabulary.plist")
            Issue.record("a damaged list was read")
        } catch {
            #expect(error.description.hasPrefix("vocabulary file fr.lproj/AppIntentVocabulary.plist: "))
            #expect(error.description.contains("version other than 00"))
        }
        #expect(ContextError(file: "log.jsonl", message: "m").description == "donation journal log.jsonl: m")
        #expect(ContextError(file: "Intents.intentdefinition", message: "m").description == "intent definition Intents.intentdefinition: m")
        #expect(ContextError(file: "apps.json", message: "m").description == "context file apps.json: m")
    }

    @Test func damagedBinaryPropertyListsAreRefused() {
        let header = Data("bplist00".utf8)
        #expect(throws: PropertyListGuard.Refused.self) { try PropertyListGuard.check(header + Data(repeating: 0, count: 10)) }
        // A trailer whose offset table lies past the end of the file.
        var trailer = Data(repeating: 0, count: 32)
        trailer[6] = 1
        trailer[7] = 1
        trailer[15] = 1
        trailer[31] = 0xFF
        #expect(throws: PropertyListGuard.Refused.self) { try PropertyListGuard.check(header + Data([0x08]) + trailer) }
        // XML is not looked at.
        #expect(throws: Never.self) { try PropertyListGuard.check(Data("<?xml version=\"1.0\"?><plist><dict/></plist>".utf8)) }
    }

    @Test func tooLongIsRefusedWithAReason() throws {
        let text = String(repeating: "send a message to Bobo, saying hi, ", count: 100)
        let result = try Self.parser.parse(text, locale: ParlanceLocale("en"), referenceTime: Self.reference)
        #expect(result.intent == nil)
        #expect(result.reason?.contains("too long") == true)
    }

    /// A parse's work budget counts its own matcher steps only. What the first parse of a
    /// language makes for later ones (the custom-intent tier) is none of its steps, and is not
    /// cut short when that parse goes over its budget: a budget gives the same answer whether
    /// the parse comes first or after one that went over, and the tier made then reads custom
    /// requests as one made with no budget does.
    @Test func aBudgetGivesTheSameAnswerFirstOrLater() throws {
        let costly = String(repeating: "send a message to Bobo saying hi ", count: 10)
        let english = try ParlanceLocale("en-US")
        func outcome(_ text: String, budget: Int, after earlier: String?) throws -> String {
            let parser = try IntentParser(context: .demo, workBudget: budget)
            if let earlier {
                #expect(throws: IntentParser.TooSlow.self) { try parser.parse(earlier, locale: english, referenceTime: Self.reference) }
            }
            do {
                let result = try parser.parse(text, locale: english, referenceTime: Self.reference)
                guard let frame = result.intent else { return "none" }
                return "\(frame.app ?? "-") \(frame.name) \(frame.parameters.map { "\($0.name)=\($0.raw)" }.sorted())"
            } catch is IntentParser.TooSlow {
                return "too slow"
            }
        }
        let budgets = [2, 5, 10, 20, 50, 100]
        for text in ["send a message to Bobo saying hi", "order a tomato soup with Soup Chef", "hello there"] {
            let first = try budgets.map { try outcome(text, budget: $0, after: nil) }
            let later = try budgets.map { try outcome(text, budget: $0, after: costly) }
            #expect(first == later, "\(text)")
            // The budgets are around what the request takes: some too few, some enough.
            #expect(first.contains("too slow") && first.last != "too slow", "\(text): \(first)")
            #expect(first.last == (try outcome(text, budget: IntentParser.defaultWorkBudget, after: nil)), "\(text)")
        }
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
