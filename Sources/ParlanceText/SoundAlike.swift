import ParlanceICU

/// Sound-alike keys for names, per language: two spellings that sound the same in that
/// language get the same key ("Vicente"/"Bicente" and "Yolanda"/"Llolanda" in Spanish,
/// "Jon"/"John" in English, "Renaud"/"Reno" in French).
///
/// The rules are data (`Languages/<code>/soundalike.json`): whole-word `equivalents`
/// (spellings of one name that no spelling rule relates: "Sean", "Shawn"), then ICU
/// transform `rules` applied to the token's Latin, case- and diacritic-folded form.
/// Keys are for comparing, never for showing.
public struct SoundAlike: Sendable {
    /// The language code the rules are for ("es").
    public let language: String
    private let equivalents: [String: String]
    /// ICU's transform of the rules: made at once when `rules` cannot run them, else only when
    /// asked (`icuKey`, to check the two agree): making any ICU transform first registers all
    /// of ICU's, which costs more than the rest of a start.
    private let transform: LazyTransform
    /// The same rules run here, without ICU's process-wide lock (nil when they use syntax
    /// `TransformRules` does not read: ICU runs them then).
    private let rules: TransformRules?

    /// The sound-alike rules of a language, loaded once and shared.
    public static func forLanguage(_ language: String) throws -> SoundAlike {
        if let cached = cache.withLock({ $0[language] }) { return cached }
        let data = try LanguageResources.load(SoundAlikeData.self, file: "soundalike.json", language: language)
        let made = try SoundAlike(language: language, data: data)
        cache.withLock { $0[language] = made }
        return made
    }

    private static let cache = Locked<[String: SoundAlike]>([:])

    init(language: String, data: SoundAlikeData) throws {
        self.language = language
        var map: [String: String] = [:]
        for group in data.equivalents {
            guard let first = group.first else { continue }
            let canonical = TextNormalizer.latin(first)
            for spelling in group { map[TextNormalizer.latin(spelling)] = canonical }
        }
        equivalents = map
        let ruleText = data.rules.joined(separator: "\n")
        rules = TransformRules(ruleText)
        transform = LazyTransform(id: "Parlance-SoundAlike-\(language)", rules: ruleText)
        if rules == nil {
            do { _ = try transform.made() } catch {
                throw LanguageDataError(file: "\(language)/soundalike.json", message: "rules: \(error)")
            }
        }
    }

    /// The key of one word, given in its Latin folded form (`TextNormalizer.latin`).
    public func key(ofWord word: String) -> String {
        let word = prepared(word)
        if let rules { return rules.apply(word) }
        return (try? transform.made().transliterate(word)) ?? word
    }

    /// `key(ofWord:)` as ICU computes it, for checking `TransformRules` against ICU.
    func icuKey(ofWord word: String) -> String {
        let word = prepared(word)
        return (try? transform.made().transliterate(word)) ?? word
    }

    /// The word the rules read: its group's first spelling, or the word cut to a name's length.
    private func prepared(_ word: String) -> String { equivalents[word] ?? WordLength.cut(word) ?? word }

    /// Whether the rules run without ICU (`TransformRules` reads them).
    var runsWithoutICU: Bool { rules != nil }

    /// The keys of every word of a phrase (any script), in order.
    public func keys(of phrase: String) -> [String] {
        NameWords.split(TextNormalizer.latin(phrase)).map { key(ofWord: $0) }
    }
}

/// Splits a folded name into its words: at spaces, hyphens, periods, commas, slashes and
/// apostrophes ("jean-pierre" → jean, pierre; "o'brien" → o, brien; "bobo jr." → bobo, jr).
public enum NameWords {
    /// The words of a folded name, in order: runs of letters and digits, split at everything else (spaces, hyphens,
    /// periods, apostrophes, any other punctuation or symbol).
    public static func split(_ folded: String) -> [String] {
        // ASCII (nearly every folded name): split on bytes.
        if folded.utf8.allSatisfy({ $0 < 0x80 }) {
            var words: [String] = []
            var start: String.UTF8View.Index? = nil
            let utf8 = folded.utf8
            var i = utf8.startIndex
            while i != utf8.endIndex {
                let b = utf8[i]
                let isWordByte = (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
                if isWordByte {
                    if start == nil { start = i }
                } else if let s = start {
                    words.append(String(folded[s..<i]))
                    start = nil
                }
                i = utf8.index(after: i)
            }
            if let s = start { words.append(String(folded[s...])) }
            return words
        }
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }
}

/// `soundalike.json`.
struct SoundAlikeData: Decodable, Sendable {
    /// Groups of spellings of one name that no rule relates; each maps to the group's first.
    var equivalents: [[String]]
    /// ICU transform rules (https://unicode-org.github.io/icu/userguide/transforms/general/rules.html),
    /// one or more per entry, joined with newlines; `::Null;` separates passes.
    var rules: [String]
}

/// An ICU transform made on first use, then kept.
final class LazyTransform: Sendable {
    private let id: String
    private let rules: String
    private let slot = Locked<Transliterator?>(nil)

    init(id: String, rules: String) {
        self.id = id
        self.rules = rules
    }

    func made() throws -> Transliterator {
        try slot.withLock { slot in
            if let made = slot { return made }
            let made = try Transliterator(id: id, rules: rules)
            slot = made
            return made
        }
    }
}
