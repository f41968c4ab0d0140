import Foundation
import Testing

@testable import ParlanceText

/// Awkward input must neither crash nor hang, and every span must point at its own text.
@Suite struct RobustnessTests {
    static let awkward: [String] = [
        "", " ", "\n\t ", "...", "?!¿¡", "—–-", "'''", "’", "d'", "l'", "qu'",
        "\u{202E}Bobo\u{202C}", "\u{200F}\u{200E}\u{2066}\u{2069}", "\u{200B}\u{200D}\u{FEFF}",
        "👩🏽‍💻👨‍👩‍👧‍👦🏳️‍🌈", "👍🏻👍🏼👍🏽👍🏾👍🏿", "e\u{301}\u{302}\u{303}\u{304}", "\u{301}\u{301}", "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇",
        "\u{0000}", "\u{FFFD}", "\u{1F600}\u{FE0F}", "ﷺ", "𝕄𝕠𝕟𝕜𝕖𝕪ℂ𝕙𝕒𝕥", "ＭｏｎｋｅｙＣｈａｔ",
        "20€$£¥₩", "1.2.3.4.5", "1/2/3/4", "2026-13-45", "99/99/9999", "0.0000001", "123456789012345678901234567890",
        "veinte veinte veinte veinte veinte veinte veinte veinte veinte veinte veinte veinte veinte veinte",
        "the day before the day before yesterday", "last last last Monday", "5 5 5 5 km km km",
        "for 99999999999999999999999 hours", "-666666666666666666666666 minutes", "en -666666 6666666666666666666666 s",
        "03/3/33333333333333333333338", "12/31/99999999999999999999", "99999999999999999999-1-1", "1.2.99999999999999999999",
        "مرحبا بوبو", "שלום", "สวัสดีครับ", "안녕하세요", "Привет, Бобо!"
    ]

    @Test(arguments: ParlanceLocale.supportedLanguages)
    func awkwardStrings(language: String) throws {
        let locale = try ParlanceLocale(language)
        let reference = try ReferenceTime(iso8601: CaseFiles.referenceTime)
        for text in Self.awkward {
            try check(text, locale, reference)
        }
    }

    @Test(arguments: ["en", "fr", "ja"])
    func hundredThousandCharacters(language: String) throws {
        let piece = "Envoie 20 € à Bobo d'hier, 👍🏽 e\u{301} \u{202E}x\u{202C} 北京 "
        let text = String(repeating: piece, count: 100_000 / piece.count + 1)
        #expect(text.count >= 100_000)
        let analysis = try check(text, try ParlanceLocale(language), try ReferenceTime(iso8601: CaseFiles.referenceTime))
        #expect(analysis.tokens.count > 10_000)
    }

    /// The inputs the FuzzText harness crashed on (Fuzz/regressions/FuzzText): its first byte
    /// picks the locale as the harness does (Fuzz/Sources/FuzzSupport), the rest is the text.
    @Test func fuzzRegressions() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz/regressions/FuzzText")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        #expect(files.count >= 2)
        let locales = ["en-US", "es-ES", "fr-FR", "de-DE", "it-IT", "pt-BR", "ja-JP", "zh-CN"]
        let reference = try ReferenceTime(iso8601: "2026-11-20T18:30:00+01:00")
        for file in files {
            let data = try Data(contentsOf: file)
            guard let first = data.first else { continue }
            try check(String(decoding: data.dropFirst(), as: UTF8.self), try ParlanceLocale(locales[Int(first) % locales.count]), reference)
        }
    }

    /// A duration of any size spells as ISO 8601 (a fuzzed "-666666… s" once trapped converting
    /// seconds to Int).
    @Test func durationsOfAnySize() throws {
        #expect(Measure(amount: 90, unit: .minute).iso8601 == "PT1H30M")
        #expect(Measure(amount: Decimal(string: "1.5")!, unit: .second).iso8601 == "PT1.5S")
        #expect(Measure(amount: 0, unit: .minute).iso8601 == "PT0S")
        #expect(Measure(amount: -2, unit: .hour).iso8601 == "-PT2H")
        #expect(Measure(amount: Decimal(string: "1e30")!, unit: .hour).iso8601 == "PT1" + String(repeating: "0", count: 30) + "H")
        #expect(
            Measure(amount: Decimal(string: "-6666666666666666666666")!, unit: .second).iso8601?.hasPrefix("-PT1851851851851851851H")
                == true)
    }

    /// Random strings from a mix of scripts, marks, digits and punctuation (fixed seed).
    @Test(arguments: ParlanceLocale.supportedLanguages)
    func randomStrings(language: String) throws {
        var random = SplitMix64(seed: 2026_11_21)
        let alphabet = Array("aeiouñçßÉé\u{301}\u{308} '’-.,/:;!?0123456789€$£北京東ボ\u{200B}\u{202E}👍🏽ЁлкаΩ\t\n")
        let locale = try ParlanceLocale(language)
        let reference = try ReferenceTime(iso8601: CaseFiles.referenceTime)
        for _ in 0..<300 {
            let length = Int(random.next() % 40)
            let text = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            try check(text, locale, reference)
        }
    }

    @discardableResult
    func check(_ text: String, _ locale: ParlanceLocale, _ reference: ReferenceTime) throws -> TextAnalysis {
        let analysis = try TextAnalyzer.shared.analyze(text, locale: locale, referenceTime: reference)
        let scalars = Array(text.unicodeScalars)
        func slice(_ span: Span) -> String { String(String.UnicodeScalarView(scalars[span.start..<span.end])) }
        var previousEnd = 0
        for token in analysis.tokens {
            #expect(
                token.span.start >= previousEnd && token.span.end <= scalars.count, "token span out of order in \(text.debugDescription)")
            #expect(token.span.count > 0)
            #expect(slice(token.span) == token.text, "token text is not its span in \(text.debugDescription)")
            previousEnd = token.span.end
        }
        previousEnd = 0
        for entity in analysis.entities {
            #expect(entity.span.start >= previousEnd && entity.span.end <= scalars.count)
            #expect(slice(entity.span) == entity.text)
            previousEnd = entity.span.end
        }
        _ = try ParlanceJSON.line(analysis)
        return analysis
    }
}

/// JSON nested past Foundation's limit is refused before the decoder sees it.
@Suite struct JSONGuardTests {
    @Test func nestingIsCountedOutsideStringsOnly() throws {
        let limit = JSONGuard.maximumDepth
        try JSONGuard.check(Array((String(repeating: "[", count: limit) + String(repeating: "]", count: limit)).utf8))
        #expect(throws: JSONGuard.TooDeep.self) { try JSONGuard.check(Array(String(repeating: "[", count: limit + 1).utf8)) }
        #expect(throws: JSONGuard.TooDeep.self) { try JSONGuard.check(Array(String(repeating: "{\"a\":", count: 513).utf8)) }
        // Brackets in a string (escaped quotes included) are text.
        try JSONGuard.check(Array(("{\"text\": \"\\\"" + String(repeating: "[", count: 1000) + "\"}").utf8))
        struct Record: Decodable { var text: String }
        #expect(try JSONGuard.decode(Record.self, from: Data("{\"text\": \"[[[\"}".utf8)).text == "[[[")
    }
}
