import Foundation
import Testing

@testable import ParlanceText

/// Runs `Cases/<language>/tokens.jsonl` and `entities.jsonl` for every language.
@Suite struct LanguageCaseTests {
    static let languages = ParlanceLocale.supportedLanguages

    @Test func everyLanguageHasCases() throws {
        #expect(!Self.languages.isEmpty)
        let folders = try FileManager.default.contentsOfDirectory(atPath: CaseFiles.cases.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(folders == Self.languages, "Cases/ needs one folder per language folder in Languages/")
        for language in Self.languages {
            #expect(try !CaseFiles.lines(language, "tokens.jsonl").isEmpty)
            #expect(try !CaseFiles.lines(language, "entities.jsonl").isEmpty)
        }
    }

    @Test(arguments: languages)
    func tokens(language: String) throws {
        for (line, object) in try CaseFiles.lines(language, "tokens.jsonl") {
            let text = try #require(object["text"] as? String)
            let locale = try ParlanceLocale(object["locale"] as? String ?? language)
            let tokens = try TextAnalyzer.shared.tokenize(text, locale: locale)
            let place = "\(language)/tokens.jsonl:\(line) \(text)"
            for (field, read) in [("tokens", \Token.text), ("normalized", \Token.normalized), ("keys", \Token.key), ("latin", \Token.latin)]
                as [(String, KeyPath<Token, String>)]
            {
                guard let expected = object[field] as? [String] else { continue }
                #expect(tokens.map { $0[keyPath: read] } == expected, "\(place): \(field)")
            }
        }
    }

    @Test(arguments: languages)
    func entities(language: String) throws {
        for (line, object) in try CaseFiles.lines(language, "entities.jsonl") {
            let text = try #require(object["text"] as? String)
            let locale = try ParlanceLocale(object["locale"] as? String ?? language)
            let reference = try ReferenceTime(iso8601: object["reference_time"] as? String ?? CaseFiles.referenceTime)
            let analysis = try TextAnalyzer.shared.analyze(text, locale: locale, referenceTime: reference)
            let expected = try #require(object["entities"] as? [[String: Any]])
            let actual = try analysis.entities.map { entity -> [String: Any] in
                ["type": entity.type.rawValue, "text": entity.text, "value": try CaseFiles.json(entity.value)]
            }
            #expect(
                CaseFiles.same(actual, expected),
                "\(language)/entities.jsonl:\(line) \(text) [\(locale)]\n  expected \(CaseFiles.text(expected))\n  got      \(CaseFiles.text(actual))"
            )
        }
    }
}
