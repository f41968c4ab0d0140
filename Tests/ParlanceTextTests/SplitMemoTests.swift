import Foundation
import Testing

@testable import ParlanceText

/// The tokens a word was split into, kept per thread (`SplitMemo`), are those the word is
/// split into anew: the first time and every time after, at any place in the text, for the
/// tokenizer that split it only, and after a full table starts again.
@Suite struct SplitMemoTests {
    /// Every language's token cases (elisions, clitics, numbers glued to units, suffixes).
    static func texts(_ language: String) throws -> [String] {
        try CaseFiles.lines(language, "tokens.jsonl").compactMap { $0.1["text"] as? String }
    }

    @Test(arguments: ParlanceLocale.supportedLanguages)
    func rememberedTokensAreTheTokensMadeAnew(language: String) throws {
        let tokenizer = try Tokenizer(language: language)
        let texts = try Self.texts(language)
        #expect(!texts.isEmpty)
        for _ in 0..<2 {
            for text in texts {
                #expect(tokenizer.tokenize(text) == tokenizer.tokenize(text, remembering: false), "\(language): \(text)")
                // The same words further on: the spans move with them.
                let later = "— " + text + " " + text
                #expect(tokenizer.tokenize(later) == tokenizer.tokenize(later, remembering: false), "\(language): \(later)")
            }
        }
    }

    @Test func aWordIsRememberedForItsTokenizerOnly() throws {
        // Spanish splits a clitic off "dame" ("da" + "me"); French keeps "dame" whole; Italian
        // splits "mandagli", Spanish does not know it.
        let tokenizers = try ["es", "fr", "it", "pt"].map { try Tokenizer(language: $0) }
        for _ in 0..<2 {
            for tokenizer in tokenizers {
                for text in ["dame el libro", "mandagli un messaggio", "dall'hotel", "dímelo", "manda-lhe"] {
                    #expect(tokenizer.tokenize(text) == tokenizer.tokenize(text, remembering: false), "\(tokenizer.language): \(text)")
                }
            }
        }
        let spanish = try #require(tokenizers.first)
        let french = try #require(tokenizers.dropFirst().first)
        #expect(spanish.tokenize("dame").map(\.text) == ["da", "me"])
        #expect(french.tokenize("dame").map(\.text) == ["dame"])
    }

    @Test func aFullMemoStartsAgain() throws {
        let tokenizer = try Tokenizer(language: "it")
        // More distinct words than the memo keeps (each with an elision), then the first ones
        // again: the same tokens.
        let words = (0..<(SplitMemo.limit + 10)).map { "dall'hotel\($0)x" }
        let text = words.joined(separator: " ")
        #expect(tokenizer.tokenize(text) == tokenizer.tokenize(text, remembering: false))
        let again = words.prefix(20).joined(separator: " ")
        #expect(tokenizer.tokenize(again) == tokenizer.tokenize(again, remembering: false))
        // A word longer than the memo keeps is split all the same.
        let long = "dall'" + String(repeating: "a", count: SplitMemo.longest)
        #expect(tokenizer.tokenize(long).map(\.text) == ["dall'", String(repeating: "a", count: SplitMemo.longest)])
    }
}
