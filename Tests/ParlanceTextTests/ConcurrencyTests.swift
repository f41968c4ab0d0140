import Foundation
import Testing

@testable import ParlanceText

/// The analyzer is called from many tasks at once (break iterators are not thread-safe in
/// ICU; Parlance must make that invisible). Results must equal the sequential ones.
@Suite struct ConcurrencyTests {
    static let utterances: [(String, String)] = [
        ("en-US", "Pay Ana twenty bucks for last weekend's 5 km run"),
        ("es-ES", "mándale veinte euros a Íñigo el lunes pasado"),
        ("fr-FR", "Envoie vingt-deux dollars à Bobo d'hier"),
        ("de-DE", "zahle dreiundzwanzig Euro für letzten Montag"),
        ("it-IT", "corri mezz'ora lunedì scorso"),
        ("pt-BR", "paga vinte reais ontem de manhã"),
        ("ja-JP", "昨日ボボに3000円送って"),
        ("zh-CN", "昨天给北京的魏章发消息")
    ]

    @Test func manyTasksGetTheSequentialResults() async throws {
        let analyzer = TextAnalyzer()
        let reference = try ReferenceTime(iso8601: CaseFiles.referenceTime)
        var expected: [TextAnalysis] = []
        for (locale, text) in Self.utterances {
            expected.append(try analyzer.analyze(text, locale: ParlanceLocale(locale), referenceTime: reference))
        }
        let results = try await withThrowingTaskGroup(of: (Int, TextAnalysis).self) { group in
            for round in 0..<400 {
                let n = round % Self.utterances.count
                let (locale, text) = Self.utterances[n]
                group.addTask { (n, try analyzer.analyze(text, locale: ParlanceLocale(locale), referenceTime: reference)) }
            }
            var all: [(Int, TextAnalysis)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 400)
        for (n, analysis) in results {
            #expect(analysis == expected[n])
        }
    }

    /// Images read on several threads at once, with empty arrays among their values (a table
    /// of no names): reading one writes nothing shared (under ThreadSanitizer, a race fails).
    @Test func imagesWithEmptyArraysReadOnManyThreadsAtOnce() async throws {
        let empty = Data(ImageCache.encode(FeatureTable([])))
        let full = Data(ImageCache.encode(FeatureTable(["w:a", "w:b"])))
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<64 {
                group.addTask { try ImageCache.decode(FeatureTable.self, from: n % 2 == 0 ? empty : full).count }
            }
            var counts: [Int] = []
            for try await count in group { counts.append(count) }
            return counts
        }
        #expect(counts.sorted() == [Int](repeating: 0, count: 32) + [Int](repeating: 2, count: 32))
    }

    @Test func languagesBuiltConcurrentlyOnFirstUse() async throws {
        let analyzer = TextAnalyzer()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for language in ParlanceLocale.supportedLanguages {
                for _ in 0..<3 {
                    group.addTask { _ = try analyzer.tokenize("Bobo 20", locale: ParlanceLocale(language)) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try analyzer.tokenize("Bobo 20", locale: ParlanceLocale("fr")).count == 2)
    }
}
