import Foundation
import Testing

@testable import ParlanceText

/// Runs `Cases/<language>/soundalike.jsonl`: pairs of names that must (`"same": true`) or
/// must not (`"same": false`) get the same sound-alike keys in that language.
@Suite struct SoundAlikeTests {
    @Test(arguments: ParlanceLocale.supportedLanguages)
    func pairs(language: String) throws {
        let rules = try SoundAlike.forLanguage(language)
        let lines = try CaseFiles.lines(language, "soundalike.jsonl")
        #expect(lines.count >= 10, "\(language)/soundalike.jsonl needs at least 10 pairs")
        #expect(lines.contains { $0.object["same"] as? Bool == false }, "\(language)/soundalike.jsonl needs pairs that must differ")
        for (line, object) in lines {
            let a = try #require(object["a"] as? String)
            let b = try #require(object["b"] as? String)
            let same = try #require(object["same"] as? Bool)
            let ka = rules.keys(of: a)
            let kb = rules.keys(of: b)
            #expect(
                (ka == kb) == same, "\(language)/soundalike.jsonl:\(line) \(a) \(ka) vs \(b) \(kb): expected \(same ? "same" : "different")"
            )
        }
    }

    @Test func badRulesNameTheFileAndPlace() {
        #expect {
            try SoundAlike(language: "xx", data: SoundAlikeData(equivalents: [], rules: ["a > b;", "c > > d;"]))
        } throws: { error in
            "\(error)".contains("xx/soundalike.json") && "\(error)".contains("near offset")
        }
    }

    @Test func namesSplitIntoWords() {
        #expect(NameWords.split("jean-pierre o'brien jr.") == ["jean", "pierre", "o", "brien", "jr"])
        #expect(NameWords.split("  ") == [])
    }
}
