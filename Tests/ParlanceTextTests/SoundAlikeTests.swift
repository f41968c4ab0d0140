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

    /// The rules run without ICU (`TransformRules`) give ICU's keys: on every word of the
    /// language's `names.json` and case files, in every language's rules, and on 3,000
    /// random words per language over the letters the rules name and the common ones.
    @Test(arguments: LanguageResources.availableLanguages)
    func rulesRunWithoutICUAsICURunsThem(language: String) throws {
        let rules = try SoundAlike.forLanguage(language)
        #expect(rules.runsWithoutICU, "\(language)/soundalike.json uses syntax TransformRules does not read: ICU's lock serializes it")
        var words: Set<String> = []
        func collect(_ any: Any) {
            if let text = any as? String {
                words.formUnion(NameWords.split(TextNormalizer.latin(text)))
            } else if let list = any as? [Any] {
                list.forEach(collect)
            } else if let object = any as? [String: Any] {
                object.keys.forEach(collect)
                object.values.forEach(collect)
            }
        }
        for code in LanguageResources.availableLanguages {
            let url = try #require(LanguageResources.directory?.appendingPathComponent(code).appendingPathComponent("names.json"))
            collect(try JSONSerialization.jsonObject(with: Data(contentsOf: url)))
            for line in (try? CaseFiles.lines(code, "soundalike.jsonl")) ?? [] { collect(line.object) }
        }
        #expect(words.count > 1_000)
        let soundAlikeURL = try #require(
            LanguageResources.directory?.appendingPathComponent(language).appendingPathComponent("soundalike.json"))
        let ruleText = try String(contentsOf: soundAlikeURL, encoding: .utf8)
        let letters = Array(
            Set(ruleText.unicodeScalars.filter { $0.properties.isLowercase || ("0"..."9").contains($0) }).union(
                "aeiouybcdfghjklmnpqrstvwxz".unicodeScalars)
        )
        .sorted()
        var random = SplitMix64(seed: 7)
        for _ in 0..<3_000 {
            var word = String.UnicodeScalarView()
            for _ in 0..<(1 + Int(random.next() % 9)) { word.append(letters[Int(random.next() % UInt64(letters.count))]) }
            words.insert(String(word))
        }
        var differing: [String] = []
        for word in words.sorted() where rules.key(ofWord: word) != rules.icuKey(ofWord: word) {
            differing.append("\(word): \(rules.key(ofWord: word)) vs ICU \(rules.icuKey(ofWord: word))")
        }
        #expect(differing.isEmpty, "\(language): \(differing.count) of \(words.count) words differ from ICU: \(differing.prefix(10))")
    }

    /// Rules in syntax the engine does not read still work: ICU runs them.
    @Test func rulesOutsideTheSubsetRunInICU() throws {
        let rules = try SoundAlike(language: "xx", data: SoundAlikeData(equivalents: [], rules: ["$vowel = [aeiou];", "$vowel { b > p;"]))
        #expect(!rules.runsWithoutICU)
        #expect(rules.key(ofWord: "ab") == "ap")
        #expect(rules.key(ofWord: "bab") == "bap")
        #expect(TransformRules("a > b; ::Latin-ASCII;") == nil)
        #expect(TransformRules("a <> b;") == nil)
        #expect(TransformRules("[:L:] > x;") == nil)
        let anchored = try #require(TransformRules("^ kn > n; mb $ > m; [aeiou]+ > a; ::Null; a { h > ;"))
        #expect(anchored.apply("knoumb") == "nam")
        #expect(anchored.apply("akn") == "akn")
        #expect(anchored.apply("ahb") == "ab")
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
