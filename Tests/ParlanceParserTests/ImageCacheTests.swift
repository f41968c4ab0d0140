import Foundation
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceText

/// Compiled language images (`ImageCache`): a grammar, model or lexicon read from its image is
/// the one built from the sources; a damaged or stale image is never read; a cache that cannot
/// be written costs nothing but the build.
@Suite struct ImageCacheTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func tokenizer(_ language: String = "en") throws -> Tokenizer {
        try TextAnalyzer.shared.pack(for: ParlanceLocale(language)).tokenizer
    }

    static func images(in folder: URL, _ kind: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(kind + "-") && $0.hasSuffix(".image") }
            .sorted().map { folder.appendingPathComponent($0) }
    }

    /// The bytes a grammar writes: equal bytes, equal grammars (every table, word and template).
    static func bytes(_ grammar: LanguageGrammar) -> [UInt8] { ImageCache.encode(GrammarImage(grammar: grammar)) }

    @Test func aGrammarReadFromItsImageIsTheGrammarBuilt() throws {
        let cache = try Self.folder()
        let tokenizer = try Self.tokenizer()
        let built = try LanguageGrammar.load(language: "en", catalogue: .standard, tokenizer: tokenizer, cache: cache)
        #expect(built.origin == .built)
        let file = try #require(built.file)
        #expect(FileManager.default.fileExists(atPath: file.path))
        let read = try LanguageGrammar.load(language: "en", catalogue: .standard, tokenizer: tokenizer, cache: cache)
        #expect(read.origin == .read)
        #expect(Self.bytes(read.grammar) == Self.bytes(built.grammar))
        // The patterns and rules, read on first use, are the built ones.
        #expect(read.grammar.templates.map(\.pattern) == built.grammar.templates.map(\.pattern))
        #expect(read.grammar.rules == built.grammar.rules)
        #expect(read.grammar.main.automaton.wordSteps.steps.count == built.grammar.main.automaton.wordSteps.steps.count)
        #expect(read.grammar.main.automaton.wordSteps.steps.count > 1_000)
    }

    /// The checksum told its stretches as it reads them (so that a mapped image's pages can be
    /// handed back) is the checksum of the whole; and a mapped file whose pages were handed
    /// back still reads the same bytes.
    @Test func aChecksumReadInStretchesIsTheWholeOnesAndReleasedPagesReadTheSame() throws {
        var bytes = [UInt8](repeating: 0, count: 3 * 4096 + 77)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 7) }
        var whole = ImageHash()
        whole.combine(bytes)
        for every in [32, 4096, 8192, 1 << 22] {
            var hasher = ImageHash()
            var told = 0
            bytes.withUnsafeBytes { raw in hasher.combine(raw, every: every) { told += $0.count } }
            #expect(hasher.value == whole.value)
            #expect(told == bytes.count)
        }
        let file = try Self.folder().appendingPathComponent("mapped.bin")
        try Data(bytes).write(to: file)
        let mapped = try #require(MappedFile(file))
        var first = ImageHash()
        mapped.data.withUnsafeBytes { first.combine($0, every: 4096, mapped.release) }
        #expect(first.value == whole.value)
        #expect(Array(mapped.data) == bytes)
    }

    @Test func aDamagedImageIsBuiltAgainAndReplaced() throws {
        let cache = try Self.folder()
        let tokenizer = try Self.tokenizer()
        let built = try LanguageGrammar.load(language: "en", catalogue: .standard, tokenizer: tokenizer, cache: cache)
        let file = try #require(built.file)
        var bytes = try [UInt8](Data(contentsOf: file))
        // One bit of the payload flipped, far from the header.
        bytes[bytes.count / 2] ^= 0x10
        try Data(bytes).write(to: file)
        let again = try LanguageGrammar.load(language: "en", catalogue: .standard, tokenizer: tokenizer, cache: cache)
        #expect(again.origin == .rebuilt)
        // Built from the sources again (lexicons read from JSON objects are filled in their
        // dictionaries' order, so the bytes may differ; the automata may not).
        #expect(again.grammar.main.automaton.wordSteps.steps.count == built.grammar.main.automaton.wordSteps.steps.count)
        #expect(again.grammar.heads.count == built.grammar.heads.count)
        // Replaced: the next start reads it.
        #expect(try LanguageGrammar.load(language: "en", catalogue: .standard, tokenizer: tokenizer, cache: cache).origin == .read)
        // Cut short, or not an image at all: built again as well.
        try Data(bytes.prefix(100)).write(to: file)
        #expect(try LanguageGrammar.load(language: "en", catalogue: .standard, tokenizer: tokenizer, cache: cache).origin == .rebuilt)
        try Data("not an image".utf8).write(to: file)
        #expect(try LanguageGrammar.load(language: "en", catalogue: .standard, tokenizer: tokenizer, cache: cache).origin == .rebuilt)
    }

    @Test func everyCutOfAnImageIsRefusedWithoutACrash() throws {
        var lexicon = PhraseLexicon()
        lexicon.insert(["tomato", "soup"], value: "tomato")
        lexicon.insert(["chicken"], value: "chicken")
        let bytes = ImageCache.encode(lexicon)
        let whole = try ImageCache.decode(PhraseLexicon.self, from: Data(bytes))
        #expect(whole.values(of: ["tomato", "soup"]) == ["tomato"])
        for length in 0..<bytes.count {
            #expect(throws: ImageError.self) { try ImageCache.decode(PhraseLexicon.self, from: Data(bytes.prefix(length))) }
        }
        for position in stride(from: ImageCache.magic.count, to: bytes.count, by: 3) {
            var damaged = bytes
            damaged[position] ^= 0xFF
            #expect(throws: ImageError.self) { try ImageCache.decode(PhraseLexicon.self, from: Data(damaged)) }
        }
    }

    @Test func anImageOfOtherSourcesIsNeverRead() throws {
        let cache = try Self.folder()
        // A copy of the English grammar, then one of its files changed: another key.
        let grammars = try Self.folder()
        let source = try #require(LanguageGrammar.directory).appendingPathComponent("en")
        try FileManager.default.copyItem(at: source, to: grammars.appendingPathComponent("en"))
        let tokenizer = try Self.tokenizer()
        let first = try LanguageGrammar.load(language: "en", catalogue: .standard, tokenizer: tokenizer, directory: grammars, cache: cache)
        #expect(first.origin == .built)
        #expect(!first.grammar.fillers.contains("zorblat"))
        let lexicon = grammars.appendingPathComponent("en/lexicon.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: lexicon)) as? [String: Any])
        json["fillers"] = ((json["fillers"] as? [String]) ?? []) + ["zorblat"]
        try JSONSerialization.data(withJSONObject: json).write(to: lexicon)
        let second = try LanguageGrammar.load(language: "en", catalogue: .standard, tokenizer: tokenizer, directory: grammars, cache: cache)
        #expect(second.origin == .built)
        #expect(second.grammar.fillers.contains("zorblat"))
        #expect(second.file != first.file)
        // The image of the old sources is gone: one image per language stays.
        #expect(try Self.images(in: cache, "grammar").map(\.lastPathComponent) == [try #require(second.file).lastPathComponent])
    }

    @Test func aCacheThatCannotBeWrittenOnlyCostsTheBuild() throws {
        let blocked = try Self.folder().appendingPathComponent("a-file")
        try Data("x".utf8).write(to: blocked)
        let loaded = try LanguageGrammar.load(language: "en", catalogue: .standard, tokenizer: try Self.tokenizer(), cache: .some(blocked))
        #expect(loaded.origin == .built)
        #expect(loaded.file == nil)
        #expect(
            try LanguageGrammar.load(language: "en", catalogue: .standard, tokenizer: try Self.tokenizer(), cache: .some(nil)).file == nil)
    }

    @Test func aModelReadFromItsImageScoresAsTheFile() throws {
        let url = try #require(FrameModel.url(for: "en"))
        let file = try FrameModel(decoding: Data(contentsOf: url), file: "en.plm")
        let image = try ImageCache.decode(FrameModel.self, from: Data(ImageCache.encode(file)))
        #expect(image.classifier.featureCount == file.classifier.featureCount)
        #expect(image.classifier.features == file.classifier.features)
        let features = Array(file.classifier.features.prefix(200)) + ["w:no-such-feature", ""]
        #expect(image.classifier.scores(features) == file.classifier.scores(features))
        let tagger = try #require(file.tagger)
        let imaged = try #require(image.tagger)
        #expect(imaged.labels == tagger.labels)
        #expect(imaged.features.names == tagger.features.names)
        #expect(imaged.offsets == tagger.offsets)
        #expect(imaged.pairLabels == tagger.pairLabels)
        #expect(imaged.pairWeights == tagger.pairWeights)
        #expect(imaged.transitions == tagger.transitions)
        #expect(imaged.capitalsCarrySignal == tagger.capitalsCarrySignal)
        // An image of the image holds the same tagger (its bytes written as they were read).
        let again = try ImageCache.decode(FrameModel.self, from: Data(ImageCache.encode(image)))
        #expect(again.tagger?.pairWeights == tagger.pairWeights)
    }

    @Test func aTaggerWhoseTablesDoNotHoldIsNotRead() throws {
        let features = FeatureTable(["w:a", "w:b"])
        func tagger(offsets: [Int32], labels: [UInt16]) -> FrameTagger {
            FrameTagger(
                labels: ["O", "B-x"], features: features, offsets: offsets, pairLabels: labels, pairWeights: labels.map { _ in 0.5 },
                transitions: [Float](repeating: 0, count: 6), capitalsCarrySignal: false)
        }
        let good = tagger(offsets: [0, 1, 2], labels: [0, 1])
        #expect(try ImageCache.decode(FrameTagger.self, from: Data(ImageCache.encode(good))).pairLabels == [0, 1])
        // A label past the labels, offsets that fall, offsets that end before the weights.
        for bad in [
            tagger(offsets: [0, 1, 2], labels: [0, 2]), tagger(offsets: [0, 2, 1], labels: [0, 1]),
            tagger(offsets: [0, 1, 1], labels: [0, 1])
        ] {
            #expect(throws: ImageError.self) { try ImageCache.decode(FrameTagger.self, from: Data(ImageCache.encode(bad))) }
        }
    }

    @Test func aFeatureTableFindsEveryNameAndNothingElse() {
        let names = (0..<5_000).map { "w:\($0)" } + ["", "é", "c:ab", "c:abc"]
        let table = FeatureTable(names)
        #expect(table.count == names.count)
        for (row, name) in names.enumerated() { #expect(table[name] == Int32(row)) }
        for missing in ["w:5000", "w:-1", "c:a", "E", "é "] { #expect(table[missing] == nil) }
        #expect(table.names == names)
        let copy = try? ImageCache.decode(FeatureTable.self, from: Data(ImageCache.encode(table)))
        #expect(copy?.names == names)
        #expect(copy?["c:abc"] == Int32(names.count - 1))
    }

    @Test func theTextLexiconsReadFromTheirImageAreTheBuiltOnes() throws {
        for language in ["en", "de", "fr"] {
            let tokenizer = try Self.tokenizer(language)
            let built = TextLexicons(
                currencies: try CurrencyLexicon(language: language, tokenizer: tokenizer),
                measures: try MeasureLexicon(language: language, tokenizer: tokenizer),
                dates: try DateLexicon(language: language, tokenizer: tokenizer))
            let bytes = ImageCache.encode(built)
            let read = try ImageCache.decode(TextLexicons.self, from: Data(bytes))
            #expect(ImageCache.encode(read) == bytes, "\(language)")
            let numbers = try NumberLexicon(language: language, tokenizer: tokenizer)
            let numberBytes = ImageCache.encode(numbers)
            #expect(ImageCache.encode(try ImageCache.decode(NumberLexicon.self, from: Data(numberBytes))) == numberBytes)
        }
        let names = try NameKnowledge.shared.get()
        let nameBytes = ImageCache.encode(names)
        #expect(ImageCache.encode(try ImageCache.decode(NameKnowledge.self, from: Data(nameBytes))) == nameBytes)
    }
}
