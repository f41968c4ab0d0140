import ParlanceText

/// A name as the resolver compares it: Latin, case- and diacritic-folded words
/// ("Íñigo Etxeberria" → inigo, etxeberria; "李娜" → li, na), the words joined without
/// spaces or punctuation ("bananarific"), and the language's sound-alike key of each.
struct NameForm: Sendable {
    /// Which of an item's names a form is: its phrase, its pronunciation hint or its nickname.
    enum Kind: UInt8, Sendable {
        case phrase, pronunciation, nickname

        /// As `NameMatch.form` says it.
        var name: String {
            switch self {
            case .phrase: "phrase"
            case .pronunciation: "pronunciation"
            case .nickname: "nickname"
            }
        }
    }

    let words: [String]
    let joined: String
    let wordSounds: [UInt32]
    let joinedSound: UInt32
    /// The hash of the folded form in its own script, words run together; 0 when that is
    /// the Latin form already. "叶丽" and "叶李" are both "ye li" in Latin; this tells them apart.
    let scriptKey: UInt32

    init(_ text: String, sounds: inout SoundKeys) {
        let key = TextNormalizer.key(text)
        let latinScript = TextNormalizer.isLatinScript(key)
        words = NameWords.split(latinScript && key.utf8.allSatisfy { $0 < 0x80 } ? key : TextNormalizer.latin(text, key: key))
        joined = words.joined()
        var keys = ""
        wordSounds = words.map { word in
            let (key, hash) = sounds.key(of: word)
            keys += key
            return hash
        }
        // The whole name's key is its words' keys run together (one rule pass per distinct
        // word, not per name).
        joinedSound = words.count == 1 ? wordSounds[0] : fnv1a(keys)
        scriptKey = latinScript ? 0 : fnv1a(NameWords.split(key).joined())
    }

    var isEmpty: Bool { joined.isEmpty }
}

/// Sound-alike keys of words, hashed, with a cache (index building sees the same words again
/// and again). Not thread-safe: one per building task or per query.
struct SoundKeys {
    let rules: SoundAlike
    private var cache: [String: (String, UInt32)] = [:]

    init(rules: SoundAlike) { self.rules = rules }

    /// A word's key and its hash.
    mutating func key(of word: String) -> (String, UInt32) {
        if word.isEmpty { return ("", 0) }
        if let known = cache[word] { return known }
        let key = rules.key(ofWord: word)
        let value = (key, fnv1a(key))
        if cache.count < 500_000 { cache[word] = value }
        return value
    }
}

/// FNV-1a, 32 bits, over the UTF-8 bytes. Index keys are these hashes; a collision only
/// adds a candidate, which scoring then compares on the real words.
@inline(__always)
func fnv1a(_ text: String) -> UInt32 {
    var hash: UInt32 = 2_166_136_261
    for byte in text.utf8 {
        hash ^= UInt32(byte)
        hash = hash &* 16_777_619
    }
    return hash
}
