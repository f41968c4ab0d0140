import Foundation
import ParlanceICU
import Testing

@testable import ParlanceText

/// The folds and keys kept per thread (`TextNormalizer.Memo`) are what ICU makes, the first
/// time and every time after, and a full table starts again without changing an answer.
@Suite struct NormalizerMemoTests {
    static let words = [
        "für", "Über", "Straße", "número", "Íñigo", "l’album", "ＢＯＢＯ", "Ёлка", "北京", "e\u{301}té", "ǅemal", "ﬁn",
        "Ⅻ", "Çağrı", "MÜNCHEN"
    ]

    @Test func foldsAndKeysAreICUsEveryTime() throws {
        for _ in 0..<3 {
            for word in Self.words {
                #expect(TextNormalizer.fold(word) == (try ICUNormalizer.nfkcCasefold(word)), "\(word)")
                #expect(TextNormalizer.key(word) == TextNormalizer.unifyPunctuation(try ICUNormalizer.foldKey(word)), "\(word)")
            }
        }
        // A word longer than the memo keeps is still folded.
        let long = String(repeating: "ü", count: TextNormalizer.Memo.longest)
        #expect(TextNormalizer.key(long) == String(repeating: "u", count: TextNormalizer.Memo.longest))
    }

    @Test func aFullMemoStartsAgain() throws {
        // More distinct words than the memo keeps, then the first ones again: the same answers.
        let many = (0..<(TextNormalizer.Memo.limit + 10)).map { "ü\($0)" }
        for word in many { #expect(TextNormalizer.key(word) == "u" + word.dropFirst()) }
        for word in many.prefix(20) { #expect(TextNormalizer.key(word) == "u" + word.dropFirst()) }
        for word in Self.words {
            #expect(TextNormalizer.key(word) == TextNormalizer.unifyPunctuation(try ICUNormalizer.foldKey(word)), "\(word)")
        }
    }
}
