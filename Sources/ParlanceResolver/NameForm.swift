import ParlanceText

/// A name as the resolver compares it: Latin, case- and diacritic-folded words
/// ("Íñigo Etxeberria" → inigo, etxeberria; "李娜" → li, na), the words joined without
/// spaces or punctuation ("bananarific"), and the language's sound-alike key of each.
struct NameForm: Sendable {
    let words: [String]
    let joined: String
    let wordSounds: [UInt32]
    let joinedSound: UInt32

    init(_ text: String, sounds: inout SoundKeys) {
        words = NameWords.split(TextNormalizer.latin(text))
        joined = words.joined()
        wordSounds = words.map { sounds.hash(of: $0) }
        joinedSound = sounds.hash(of: joined)
    }

    init(words: [String], wordSounds: [UInt32], joinedSound: UInt32) {
        self.words = words
        self.joined = words.joined()
        self.wordSounds = wordSounds
        self.joinedSound = joinedSound
    }

    var isEmpty: Bool { joined.isEmpty }
}

/// Sound-alike keys of words, hashed, with a cache (index building sees the same words again
/// and again). Not thread-safe: one per building task or per query.
struct SoundKeys {
    let rules: SoundAlike
    private var cache: [String: UInt32] = [:]

    init(rules: SoundAlike) { self.rules = rules }

    mutating func hash(of word: String) -> UInt32 {
        if word.isEmpty { return 0 }
        if let known = cache[word] { return known }
        let value = fnv1a(rules.key(ofWord: word))
        if cache.count < 200_000 { cache[word] = value }
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

/// Edit distance with adjacent transpositions (optimal string alignment) on Unicode scalars,
/// giving up above `limit` (returns limit + 1).
func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    let width = b.count + 1
    var previous2 = [Int](repeating: 0, count: width)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: width)
    for i in 1...a.count {
        current[0] = i
        var rowMinimum = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                value = min(value, previous2[j - 2] + 1)
            }
            current[j] = value
            rowMinimum = min(rowMinimum, value)
        }
        if rowMinimum > limit { return limit + 1 }
        swap(&previous2, &previous)
        swap(&previous, &current)
    }
    return previous[b.count]
}
