import ParlanceICU
import Synchronization

/// The normalized forms of a piece of text. The original is always kept.
public struct NormalizedText: Sendable, Hashable, Codable {
    /// The text as given.
    public let original: String
    /// NFKC with case folding: "Straße" → "strasse", "ＢＯＢＯ" → "bobo".
    public let folded: String
    /// Case and diacritics folded, apostrophes unified: "Íñigo" → "inigo".
    public let key: String
    /// Latin transliteration of the key for cross-script matching: "Ёлка" → "elka",
    /// "北京" → "bei jing".
    public let latin: String
}

/// Normalization for matching. Thread-safe; the transliterator is shared.
public enum TextNormalizer {
    /// NFKC case folding.
    public static func fold(_ text: String) -> String {
        if let ascii = asciiLowercased(text) { return ascii }
        return Memo.local.value.folds.value(of: text) { (try? ICUNormalizer.nfkcCasefold(text)) ?? text.lowercased() }
    }

    /// The matching key: case and diacritics folded, typographic apostrophes and hyphens unified.
    public static func key(_ text: String) -> String {
        if let ascii = asciiLowercased(text) { return ascii }
        return Memo.local.value.keys.value(of: text) { unifyPunctuation((try? ICUNormalizer.foldKey(text)) ?? text.lowercased()) }
    }

    /// The folds and keys of words that are not plain ASCII, kept per thread (`WordMemo`): ICU
    /// normalizes each such word once, not each time it is said ("für", "über", "später",
    /// "número" are said over and over). Words of at most `longest` bytes, at most `limit` of each.
    final class Memo {
        static let longest = 64
        static let limit = 8_192
        static let local = ThreadLocal { Memo() }

        let folds = WordMemo<String, String>(limit: limit, longest: longest)
        let keys = WordMemo<String, String>(limit: limit, longest: longest)
    }

    /// Latin, ASCII transliteration of any script, lowercased: "Wei Zhang", "魏章" → "wei zhang".
    public static func latin(_ text: String) -> String {
        if let ascii = asciiLowercased(text) { return ascii }
        return latin(text, key: key(text))
    }

    /// `latin(text)` when `key(text)` is already known.
    public static func latin(_ text: String, key folded: String) -> String {
        if isLatinScript(folded) {
            // Latin letters need no script detection, only their ASCII forms ("łukasz").
            if folded.utf8.allSatisfy({ $0 < 0x80 }) { return folded }
            return key((try? latinASCII?.transliterate(folded)) ?? folded)
        }
        return key(OtherScripts.latin(text))
    }

    /// Whether every letter is in the Latin blocks (or punctuation, marks, digits).
    public static func isLatinScript(_ text: String) -> Bool {
        for scalar in text.unicodeScalars where !scalar.isASCII {
            let value = scalar.value
            if value < 0x0370 || (0x1E00...0x1EFF).contains(value) || (0x2000...0x206F).contains(value) { continue }
            return false
        }
        return true
    }

    /// `latin(key)` for a key with letters outside the Latin script, else the key itself
    /// (transliteration is not cheap, and Latin text needs none).
    public static func latinIfNeeded(_ key: String) -> String {
        // Latin-1 Supplement, Latin Extended-A/B, IPA, spacing modifiers, combining marks,
        // Latin Extended Additional, general punctuation: already Latin.
        isLatinScript(key) ? key : latin(key)
    }

    /// All forms at once.
    public static func normalize(_ text: String) -> NormalizedText {
        NormalizedText(original: text, folded: fold(text), key: key(text), latin: latin(text))
    }

    /// ICU's transform for scripts other than Latin (`OtherScripts` calls it once per word).
    static let latinTransliterator: Transliterator? = try? Transliterator(id: "Any-Latin; Latin-ASCII")
    static let latinASCII: Transliterator? = try? Transliterator(id: "Latin-ASCII")

    /// Apostrophe-like and hyphen-like characters that people type interchangeably.
    static func unifyPunctuation(_ text: String) -> String {
        var needs = false
        for scalar in text.unicodeScalars where apostrophes.contains(scalar) || hyphens.contains(scalar) {
            needs = true
            break
        }
        guard needs else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if apostrophes.contains(scalar) {
                result.append("'")
            } else if hyphens.contains(scalar) {
                result.append("-")
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    // U+2019 RIGHT SINGLE QUOTATION MARK, U+02BC MODIFIER LETTER APOSTROPHE, U+2018, U+00B4, U+FF07
    static let apostrophes: Set<Unicode.Scalar> = ["\u{2019}", "\u{02BC}", "\u{2018}", "\u{00B4}", "\u{FF07}"]
    // U+2010 HYPHEN, U+2011 NON-BREAKING HYPHEN, U+2012 FIGURE DASH, U+2013 EN DASH
    static let hyphens: Set<Unicode.Scalar> = ["\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}"]

    /// Lowercase ASCII without touching ICU, or nil when the text is not plain ASCII.
    @inline(__always)
    static func asciiLowercased(_ text: String) -> String? {
        // Already lower-case ASCII (most words): the string itself, nothing copied.
        let upper = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var upper = false
            for b in bytes {
                if b >= 0x80 { return nil }
                if b &- 0x41 < 26 { upper = true }
            }
            return upper
        }
        switch upper {
        case .some(.some(false)): return text
        case .some(.none): return nil
        default: break
        }
        var utf8 = Array(text.utf8)
        for i in utf8.indices {
            let b = utf8[i]
            if b >= 0x80 { return nil }
            if b >= 0x41 && b <= 0x5A { utf8[i] = b + 0x20 }
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}

/// Text in scripts other than Latin, in Latin letters (ICU's "Any-Latin; Latin-ASCII"), a word
/// at a time and each word once.
///
/// ICU runs its transforms behind one process-wide lock, and a name list repeats its words
/// ("Анна", "Петров" thousands of times among a million names): each space-separated word is
/// transformed once and kept (up to 65,536 words of at most 64 bytes: a longer one is
/// transformed every time, so that hostile text cannot fill memory); a word all in Han characters is read a
/// character at a time, as Han-Latin reads it ("王李" → "wang li"), so that the few thousand
/// characters of Chinese names are each transformed once instead of every name.
enum OtherScripts {
    /// Words kept, in 16 shards so that threads seldom wait for one another.
    private static let shards = (0..<16).map { _ in Locked<[String: String]>([:]) }
    private static let shardLimit = 4_096
    private static let longestKept = 64

    static func latin(_ text: String) -> String {
        var result = ""
        for (n, word) in text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            if n > 0 { result += " " }
            if word.isEmpty || word.utf8.allSatisfy({ $0 < 0x80 }) {
                result += word
            } else if word.unicodeScalars.allSatisfy({ $0.properties.isIdeographic }) {
                result += word.map { cached(String($0)) }.joined(separator: " ")
            } else {
                result += cached(String(word))
            }
        }
        return result
    }

    /// One word through ICU, or as ICU gave it before.
    private static func cached(_ word: String) -> String {
        let shard = shards[Int(UInt(bitPattern: word.hashValue) % 16)]
        if let known = shard.withLock({ $0[word] }) { return known }
        let made = (try? TextNormalizer.latinTransliterator?.transliterate(word)) ?? word
        if word.utf8.count <= longestKept {
            shard.withLock { words in
                if words.count < shardLimit { words[word] = made }
            }
        }
        return made
    }
}

extension String {
    /// The number of characters, as `count` gives it, read from the bytes when every byte is
    /// ASCII other than a carriage return (each such byte is one character; "\r\n" is one).
    package var characterCount: Int {
        bytesAllSatisfy { $0 < 0x80 && $0 != 0x0D } ? utf8.count : count
    }

    /// The string of `scalars`, as `String(String.UnicodeScalarView(scalars))` makes it, written
    /// as UTF-8 in one go (the scalar view appends a scalar at a time).
    @inlinable package init<S: Collection>(scalars: S) where S.Element == Unicode.Scalar {
        var count = 0
        for scalar in scalars { count += UTF8.width(scalar) }
        self.init(unsafeUninitializedCapacity: count) { buffer in
            var i = 0
            for scalar in scalars {
                UTF8.encode(scalar) { byte in
                    buffer[i] = byte
                    i += 1
                }
            }
            return i
        }
    }

    /// Whether every UTF-8 byte satisfies `predicate`, read from the string's storage when it
    /// has one (native strings do), else byte by byte.
    package func bytesAllSatisfy(_ predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? utf8.allSatisfy(predicate)
    }

    /// The index of every character, then the end index: characters `i..<j` are
    /// `self[bounds[i]..<bounds[j]]`, cut without an array of characters.
    package var characterBounds: [String.Index] {
        var bounds = Array(indices)
        bounds.append(endIndex)
        return bounds
    }
}
