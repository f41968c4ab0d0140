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

    /// A language CLDR knows that the checkout does not have yet, to scaffold.
    static func newLanguage(in scratch: URL, from candidates: [String]) throws -> String {
        let taken = Set(
            (try? FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("Sources/ParlanceText/Languages").path))
                ?? [])
        return try #require(candidates.first { !taken.contains($0) }, "every candidate language exists already")
    }

    /// The corpus locale `new-language` says it chose ("corpus locale nl-NL").
    static func corpusLocale(_ output: String) -> String? {
        guard let range = output.range(of: "corpus locale ") else { return nil }
        return String(output[range.upperBound...].prefix { $0 != ")" })
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

        // nl, unless the checkout has it already (a scaffold being filled in).
        let nl = try Self.newLanguage(in: scratch, from: ["nl", "da", "fi", "pl"])
        let made = try CommandRun(["new-language", nl, "--root", scratch.path])
        #expect(made.status == 0, "\(made.stderr)")
        let locale = try #require(Self.corpusLocale(made.stdout), "\(made.stdout)")
        // The files written, as the command lists them (thresholds lines name a file and an entry).
        let written = made.stdout.components(separatedBy: "\n\n").first!.split(separator: "\n").dropFirst()
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.contains(" (") }
        #expect(written.count >= 30, "\(made.stdout)")
        for path in written {
            #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent(path).path), "\(path) was listed, not written")
            #expect(path.contains("/\(nl)/") || path.contains("/\(locale)/"), "\(path) is not the new language's")
        }
        let thresholds = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.appendingPathComponent("Corpora/thresholds.json")))
        #expect((thresholds as? [String: Any])?[locale] != nil, "no thresholds entry for \(locale)")

        // parity: every written file (the blind corpus by its folder) and the model still to train,
        // nothing else, and nothing of the other languages.
        let parity = try CommandRun(["parity", "--root", scratch.path])
        #expect(parity.status == 1)
        let gaps = Self.listed(parity.stdout)
        var expected = Set(written.filter { !$0.hasPrefix("Corpora/blind/") && !$0.hasPrefix("Corpora/blind-resolution/") })
        expected.insert("Corpora/blind/\(locale)")
        expected.insert("Corpora/blind-resolution/\(locale)")
        expected.insert("Sources/ParlanceParser/Grammar/Models/\(nl).plm")
        #expect(Set(gaps.map(\.path)) == expected, "\(parity.stdout)")
        #expect(parity.stdout.contains("\(nl) (text and parser): \(expected.count) still needed"), "\(parity.stdout)")
        for language in ["de", "en", "es", "fr", "it", "ja", "pt", "zh"] {
            #expect(parity.stdout.contains("\n\(language) (") || parity.stdout.hasPrefix("\(language) ("), "\(language) not checked")
        }
        #expect(parity.stdout.contains("en (text and parser): complete"), "\(parity.stdout)")
        // A domain file names the reference's intents it lacks.
        let calling = try #require(gaps.first { $0.path.hasSuffix("\(nl)/calling.sentences") })
        #expect(calling.need.contains("startCall") && calling.need.contains("searchCallHistory"), "\(calling.need)")

        // The scaffold loads as it is: the text layer finds CLDR's values, the grammar matches nothing.
        let environment = [
            "PARLANCE_LANGUAGE_DIR": scratch.appendingPathComponent("Sources/ParlanceText/Languages").path,
            "PARLANCE_GRAMMAR_DIR": scratch.appendingPathComponent("Sources/ParlanceParser/Grammar/Languages").path
        ]
        let tokens = try CommandRun(["tokens", "--locale", locale, "stuur 3 euro naar Bob"], environment: environment)
        // CLDR's numbers and currencies come without any data file: "3 euro" is a value.
        #expect(tokens.status == 0 && tokens.stdout.contains("\"entities\":[{"), "\(tokens.stdout)\(tokens.stderr)")
        let parse = try CommandRun(["parse", "--locale", locale, "stuur een bericht naar Bob"], environment: environment)
        #expect(parse.status == 0 && parse.stdout.contains("\"intent\":null"), "\(parse.stdout)\(parse.stderr)")

        // Filling in shrinks the list to what is still missing.
        let grammar = scratch.appendingPathComponent("Sources/ParlanceParser/Grammar/Languages/nl")
        try Data("intent startCall\n  bel {contacts}\n".utf8).write(to: grammar.appendingPathComponent("calling.sentences"))
        try Data(#"{"values": {}, "notNames": ["ik", "jij"], "vocabulary": {}}"#.utf8)
            .write(to: grammar.appendingPathComponent("lexicon.json"))
        let after = Self.listed(try CommandRun(["parity", nl, "--root", scratch.path]).stdout)
        let callingAfter = try #require(after.first { $0.path.hasSuffix("\(nl)/calling.sentences") })
        #expect(!callingAfter.need.contains("startCall,") && callingAfter.need.contains("searchCallHistory"), "\(callingAfter.need)")
        let lexicon = try #require(after.first { $0.path.hasSuffix("\(nl)/lexicon.json") })
        #expect(
            lexicon.need.contains("values.") && lexicon.need.contains("vocabulary.") && !lexicon.need.contains("notNames"),
            "\(lexicon.need)")

        // Nothing is overwritten.
        let again = try CommandRun(["new-language", nl, "--root", scratch.path])
        #expect(again.status == 64 && again.stderr.contains("\(nl) already has"), "\(again.stderr)")
    }

    @Test func aTextOnlyLanguageHasTheTextLayerAlone() throws {
        let scratch = try Self.scratchCheckout()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let sv = try Self.newLanguage(in: scratch, from: ["sv", "nb", "cs", "hu"])
        // Its corpus locale is CLDR's likely one (sv-SE).
        let made = try CommandRun(["new-language", sv, "--text-only", "--root", scratch.path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(Self.corpusLocale(made.stdout)?.hasPrefix(sv + "-") == true, "\(made.stdout)")
        let parity = try CommandRun(["parity", sv, "--root", scratch.path])
        #expect(parity.status == 1 && parity.stdout.hasPrefix("\(sv) (text): 11 still needed"), "\(parity.stdout)")
        #expect(Self.listed(parity.stdout).allSatisfy { $0.path.contains("/\(sv)/") }, "\(parity.stdout)")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("Sources/ParlanceParser/Grammar/Languages/sv").path))
    }
}
