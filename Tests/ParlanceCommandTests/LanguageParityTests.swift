import Foundation
import Testing

/// Every language has what the reference language (en) has, as `NewLanguage/layout.json`
/// describes it; and a language written by `parlance new-language`, with nothing filled in,
/// loads, and `parlance parity` lists exactly what it still needs.
@Suite struct LanguageParityTests {
    /// The checkout's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What `parlance parity` lists when something is missing: this test's failure message.
    @Test func everyLanguageHasWhatTheReferenceHas() throws {
        let run = try CommandRun(["parity", "--root", Self.root.path])
        #expect(run.status == 0, "languages lack files or entries (fill them in, or see Adding a language):\n\(run.stdout)\(run.stderr)")
        // Every language folder was checked: the text layer's eight and the grammar's six.
        #expect(run.stdout.split(separator: "\n").filter { $0.hasSuffix("(text and parser): complete") }.count == 6, "\(run.stdout)")
        #expect(run.stdout.split(separator: "\n").filter { $0.hasSuffix("(text): complete") }.count >= 2, "\(run.stdout)")
    }

    /// The folders `layout.json` names, copied from the checkout into a scratch root.
    static func scratchCheckout() throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-language-\(UUID().uuidString)")
        for folder in [
            "Sources/ParlanceText/Languages", "Sources/ParlanceParser/Grammar", "Tests/ParlanceTextTests/Cases",
            "Tests/ParlanceParserTests/Cases", "Corpora"
        ] {
            let target = scratch.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: root.appendingPathComponent(folder), to: target)
        }
        return scratch
    }

    /// "  path: need" lines of `new-language` and `parity` output.
    static func listed(_ output: String, after heading: String? = nil) -> [(path: String, need: String)] {
        var text = Substring(output)
        if let heading, let range = output.range(of: heading) { text = output[range.upperBound...] }
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), let colon = line.range(of: ": ") else { return nil }
            return (String(line[line.index(line.startIndex, offsetBy: 2)..<colon.lowerBound]), String(line[colon.upperBound...]))
        }
    }

    @Test func aNewLanguageLoadsAndParityListsExactlyWhatItLacks() throws {
        let scratch = try Self.scratchCheckout()
        defer { try? FileManager.default.removeItem(at: scratch) }

        let made = try CommandRun(["new-language", "nl", "--root", scratch.path])
        #expect(made.status == 0, "\(made.stderr)")
        // The files written, as the command lists them (thresholds lines name a file and an entry).
        let written = made.stdout.components(separatedBy: "\n\n").first!.split(separator: "\n").dropFirst()
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.contains(" (") }
        #expect(written.count >= 30, "\(made.stdout)")
        for path in written {
            #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent(path).path), "\(path) was listed, not written")
            #expect(path.contains("/nl/") || path.contains("/nl-NL/"), "\(path) is not the new language's")
        }
        let thresholds = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.appendingPathComponent("Corpora/thresholds.json")))
        #expect((thresholds as? [String: Any])?["nl-NL"] != nil, "no thresholds entry for nl-NL")

        // parity: every written file (the blind corpus by its folder) and the model still to train,
        // nothing else, and nothing of the other languages.
        let parity = try CommandRun(["parity", "--root", scratch.path])
        #expect(parity.status == 1)
        let gaps = Self.listed(parity.stdout)
        var expected = Set(written.filter { !$0.hasPrefix("Corpora/blind/") })
        expected.insert("Corpora/blind/nl-NL")
        expected.insert("Sources/ParlanceParser/Grammar/Models/nl.plm")
        #expect(Set(gaps.map(\.path)) == expected, "\(parity.stdout)")
        #expect(parity.stdout.contains("nl (text and parser): \(expected.count) still needed"), "\(parity.stdout)")
        for language in ["de", "en", "es", "fr", "it", "ja", "pt", "zh"] {
            #expect(parity.stdout.contains("\n\(language) (") || parity.stdout.hasPrefix("\(language) ("), "\(language) not checked")
        }
        #expect(parity.stdout.contains("en (text and parser): complete"), "\(parity.stdout)")
        // A domain file names the reference's intents it lacks.
        let calling = try #require(gaps.first { $0.path.hasSuffix("nl/calling.sentences") })
        #expect(calling.need.contains("startCall") && calling.need.contains("searchCallHistory"), "\(calling.need)")

        // The scaffold loads as it is: the text layer finds CLDR's values, the grammar matches nothing.
        let environment = [
            "PARLANCE_LANGUAGE_DIR": scratch.appendingPathComponent("Sources/ParlanceText/Languages").path,
            "PARLANCE_GRAMMAR_DIR": scratch.appendingPathComponent("Sources/ParlanceParser/Grammar/Languages").path
        ]
        let tokens = try CommandRun(["tokens", "--locale", "nl-NL", "stuur 3 euro naar Bob"], environment: environment)
        #expect(tokens.status == 0 && tokens.stdout.contains("\"currency\":\"EUR\""), "\(tokens.stdout)\(tokens.stderr)")
        let parse = try CommandRun(["parse", "--locale", "nl-NL", "stuur een bericht naar Bob"], environment: environment)
        #expect(parse.status == 0 && parse.stdout.contains("\"intent\":null"), "\(parse.stdout)\(parse.stderr)")

        // Filling in shrinks the list to what is still missing.
        let grammar = scratch.appendingPathComponent("Sources/ParlanceParser/Grammar/Languages/nl")
        try Data("intent startCall\n  bel {contacts}\n".utf8).write(to: grammar.appendingPathComponent("calling.sentences"))
        try Data(#"{"values": {}, "notNames": ["ik", "jij"], "vocabulary": {}, "plurals": []}"#.utf8)
            .write(to: grammar.appendingPathComponent("lexicon.json"))
        let after = Self.listed(try CommandRun(["parity", "nl", "--root", scratch.path]).stdout)
        let callingAfter = try #require(after.first { $0.path.hasSuffix("nl/calling.sentences") })
        #expect(!callingAfter.need.contains("startCall,") && callingAfter.need.contains("searchCallHistory"), "\(callingAfter.need)")
        let lexicon = try #require(after.first { $0.path.hasSuffix("nl/lexicon.json") })
        #expect(
            lexicon.need.contains("values.") && lexicon.need.contains("vocabulary.") && !lexicon.need.contains("notNames"),
            "\(lexicon.need)")

        // Nothing is overwritten.
        let again = try CommandRun(["new-language", "nl", "--root", scratch.path])
        #expect(again.status == 64 && again.stderr.contains("nl already has"), "\(again.stderr)")
    }

    @Test func aTextOnlyLanguageHasTheTextLayerAlone() throws {
        let scratch = try Self.scratchCheckout()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let made = try CommandRun(["new-language", "sv", "--text-only", "--root", scratch.path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("corpus locale sv-SE"))
        let parity = try CommandRun(["parity", "sv", "--root", scratch.path])
        #expect(parity.status == 1 && parity.stdout.hasPrefix("sv (text): 9 still needed"), "\(parity.stdout)")
        #expect(Self.listed(parity.stdout).allSatisfy { $0.path.contains("/sv/") }, "\(parity.stdout)")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("Sources/ParlanceParser/Grammar/Languages/sv").path))
    }
}
