import Foundation
import ParlanceContext
import ParlanceText

/// The candidate index of one ordered vocabulary in one language: every item's phrase and
/// pronunciation hint as name forms, and posting lists from their words, joined forms and
/// sound-alike keys to the forms, so that a query reaches its candidates without a scan.
/// Immutable once built; safe to share.
///
/// Retrieval finds forms that share with the query (after folding and transliteration):
/// the joined form ("banana rific" / "Bananarific"), its sound-alike key, a word, a word's
/// sound-alike key, or a word one edit away (a deletion index over words of 4+ letters:
/// "Giovani" / "Giovanni"). Scoring then compares the candidates only.
public final class VocabularyIndex: Sendable {
    /// The language the forms were folded and keyed for.
    public let language: String
    /// The items, in priority order (most important first).
    public let items: [VocabularyItem]

    // One entry per form (an item's phrase, and its pronunciation hint and nickname if any).
    let formItem: [UInt32]
    let formKinds: [NameForm.Kind]
    /// The form's folded Latin words joined by single spaces.
    let formText: [String]
    let soundStart: [UInt32]
    let wordSounds: [UInt32]
    let joinedSounds: [UInt32]
    /// `NameForm.scriptKey` of each form.
    let scriptKeys: [UInt32]
    /// The items carrying each relationship (`VocabularyItem.relationship`), in priority order.
    let relationshipItems: [String: [Int]]

    let joined: Postings
    /// `scriptKeys` of the forms not in Latin → the forms.
    let scripts: Postings
    let joinedSound: Postings
    let words: Postings
    let wordSound: Postings
    /// Deletion variant of a word (and the word itself) → the word's hash.
    let deletions: Postings

    /// Words shorter than this take no part in one-edit retrieval.
    static let fuzzyMinimumLength = 4
    /// Longer words are matched exactly or by sound only: the deletion neighbourhood of a
    /// word costs its length squared, and no name has words this long.
    static let fuzzyMaximumLength = 40

    /// The number of forms indexed: each item's phrase, plus its pronunciation hint when it has one (a form that folds
    /// to nothing is left out).
    public var formCount: Int { formItem.count }

    /// Builds the index, using up to `jobs` threads.
    public init(items: [VocabularyItem], language: String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        self.language = language
        self.items = items
        let rules = try SoundAlike.forLanguage(language)

        struct Chunk {
            var formItem: [UInt32] = []
            var formKinds: [NameForm.Kind] = []
            var formText: [String] = []
            var soundCounts: [UInt32] = []
            var wordSounds: [UInt32] = []
            var joinedSounds: [UInt32] = []
            var scriptKeys: [UInt32] = []
            var joinedKeys: [UInt32] = []
            var wordKeys: [[UInt32]] = []
            var distinctWords: Set<String> = []
        }
        let workers = max(1, min(jobs, items.count / 5_000 + 1))
        let chunkSize = (items.count + workers - 1) / max(workers, 1)
        var chunks = [Chunk](repeating: Chunk(), count: workers)
        chunks.withUnsafeMutableBufferPointer { buffer in
            let box = UnsafeSendable(buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                var chunk = Chunk()
                var sounds = SoundKeys(rules: rules)
                let range = (w * chunkSize)..<min(items.count, (w + 1) * chunkSize)
                for i in range {
                    let item = items[i]
                    let forms: [(String, NameForm.Kind)] =
                        [(item.phrase, .phrase)] + (item.pronunciation.map { [($0, .pronunciation)] } ?? [])
                        + (item.nickname.map { [($0, .nickname)] } ?? [])
                    for (text, kind) in forms {
                        let form = NameForm(text, sounds: &sounds)
                        guard !form.isEmpty else { continue }
                        chunk.formItem.append(UInt32(i))
                        chunk.formKinds.append(kind)
                        chunk.formText.append(form.words.joined(separator: " "))
                        chunk.soundCounts.append(UInt32(form.words.count))
                        chunk.wordSounds.append(contentsOf: form.wordSounds)
                        chunk.joinedSounds.append(form.joinedSound)
                        chunk.scriptKeys.append(form.scriptKey)
                        chunk.joinedKeys.append(fnv1a(form.joined))
                        chunk.wordKeys.append(form.words.map(fnv1a))
                        for word in form.words where (Self.fuzzyMinimumLength...Self.fuzzyMaximumLength).contains(word.unicodeScalars.count)
                        {
                            chunk.distinctWords.insert(word)
                        }
                    }
                }
                box.pointer[w] = chunk
            }
        }

        var formItem: [UInt32] = []
        var formKinds: [NameForm.Kind] = []
        var formText: [String] = []
        var soundStart: [UInt32] = [0]
        var wordSounds: [UInt32] = []
        var joinedSounds: [UInt32] = []
        var scriptKeys: [UInt32] = []
        var joinedEntries: [UInt64] = []
        var scriptEntries: [UInt64] = []
        var joinedSoundEntries: [UInt64] = []
        var wordEntries: [UInt64] = []
        var wordSoundEntries: [UInt64] = []
        var distinct: Set<String> = []
        for chunk in chunks {
            let base = UInt32(formItem.count)
            formItem += chunk.formItem
            formKinds += chunk.formKinds
            formText += chunk.formText
            scriptKeys += chunk.scriptKeys
            var offset = 0
            for (f, count) in chunk.soundCounts.enumerated() {
                let form = base + UInt32(f)
                for w in 0..<Int(count) {
                    wordSounds.append(chunk.wordSounds[offset + w])
                    wordSoundEntries.append(Postings.entry(chunk.wordSounds[offset + w], form))
                    wordEntries.append(Postings.entry(chunk.wordKeys[f][w], form))
                }
                offset += Int(count)
                soundStart.append(UInt32(wordSounds.count))
                joinedSounds.append(chunk.joinedSounds[f])
                joinedSoundEntries.append(Postings.entry(chunk.joinedSounds[f], form))
                joinedEntries.append(Postings.entry(chunk.joinedKeys[f], form))
                if chunk.scriptKeys[f] != 0 { scriptEntries.append(Postings.entry(chunk.scriptKeys[f], form)) }
            }
            distinct.formUnion(chunk.distinctWords)
        }
        self.formItem = formItem
        var relationshipItems: [String: [Int]] = [:]
        for (i, item) in items.enumerated() {
            if let relationship = item.relationship { relationshipItems[relationship, default: []].append(i) }
        }
        self.relationshipItems = relationshipItems
        self.formKinds = formKinds
        self.formText = formText
        self.soundStart = soundStart
        self.wordSounds = wordSounds
        self.joinedSounds = joinedSounds
        self.scriptKeys = scriptKeys
        // The five posting lists, sorted side by side.
        var deletionEntries: [UInt64] = []
        deletionEntries.reserveCapacity(distinct.count * 8)
        for word in distinct {
            let key = fnv1a(word)
            forEachDeletion(of: word) { deletionEntries.append(Postings.entry($0, key)) }
        }
        let unsorted = [deletionEntries, wordEntries, wordSoundEntries, joinedEntries, joinedSoundEntries, scriptEntries]
        var sorted = [Postings?](repeating: nil, count: unsorted.count)
        sorted.withUnsafeMutableBufferPointer { buffer in
            let box = UnsafeSendable(buffer.baseAddress!)
            if workers == 1 {
                for i in unsorted.indices { box.pointer[i] = Postings(unsorted: unsorted[i]) }
            } else {
                DispatchQueue.concurrentPerform(iterations: unsorted.count) { box.pointer[$0] = Postings(unsorted: unsorted[$0]) }
            }
        }
        self.deletions = sorted[0]!
        self.words = sorted[1]!
        self.wordSound = sorted[2]!
        self.joined = sorted[3]!
        self.joinedSound = sorted[4]!
        self.scripts = sorted[5]!
    }

    /// Approximate bytes held by the index (items' strings not counted).
    public var indexBytes: Int {
        joined.bytes + scripts.bytes + joinedSound.bytes + words.bytes + wordSound.bytes + deletions.bytes
            + formItem.capacity * 4 + formKinds.capacity + formText.capacity * 16
            + formText.reduce(0) { $0 + ($1.utf8.count > 15 ? $1.utf8.count + 32 : 0) }
            + soundStart.capacity * 4 + wordSounds.capacity * 4 + joinedSounds.capacity * 4 + scriptKeys.capacity * 4
    }

    /// Whether some form has this word exactly (a folded word, as `NameForm.words`).
    func contains(word: String) -> Bool { !words.range(fnv1a(word)).isEmpty }

    /// The forms whose words are exactly these (folded words, as `NameForm.words`).
    func forms(named words: [String]) -> [Int] {
        let text = words.joined(separator: " ")
        return joined.range(fnv1a(words.joined())).map { Int(joined.value(at: $0)) }.filter { formText[$0] == text }
    }

    /// The items that carry this relationship, in priority order.
    func items(withRelationship relationship: String) -> [Int] {
        relationshipItems[relationship] ?? []
    }

    /// The sound-alike keys of a form's words.
    func sounds(ofForm form: Int) -> ArraySlice<UInt32> {
        wordSounds[Int(soundStart[form])..<Int(soundStart[form + 1])]
    }

    /// Candidate forms for a query, most promising first: forms matched by more of the
    /// query's words (the joined form counts as all of them), then in priority order.
    ///
    /// Short posting lists are read whole; a long one (a common first name) is only used to
    /// check the forms the short ones found, so a query costs about the same in a vocabulary of
    /// a thousand items or of a million. When every list is long, the first `postingLimit`
    /// entries (the most important items) of each stand in.
    func candidates(for query: NameForm, limit: Int, postingLimit: Int = 256) -> [Int] {
        var memo = WordLookups()
        return candidates(for: query, limit: limit, postingLimit: postingLimit, memo: &memo)
    }

    /// Which posting list a lookup reads.
    enum List: UInt8 { case joined, joinedSound, words, wordSound, scripts }

    /// A query word's lookups in this index (its exact word, its sound-alike key, its one-edit
    /// neighbours) with their ranges, kept for the other readings of the same query ("giovanni
    /// eara", then "john eara", "jean eara": "eara" is looked up once).
    struct WordLookups {
        var byWord: [String: [(list: List, key: UInt32, exact: Bool, range: Range<Int>)]] = [:]
    }

    func postings(_ list: List) -> Postings {
        switch list {
        case .joined: joined
        case .joinedSound: joinedSound
        case .words: words
        case .wordSound: wordSound
        case .scripts: scripts
        }
    }

    /// A word's lookups: the word, its sound-alike key and its one-edit neighbours.
    func lookups(of word: String, sound: UInt32) -> [(list: List, key: UInt32, exact: Bool, range: Range<Int>)] {
        let key = fnv1a(word)
        var found: [(list: List, key: UInt32, exact: Bool, range: Range<Int>)] = [(.words, key, true, words.range(key))]
        if word.utf8.count >= 2 { found.append((.wordSound, sound, false, wordSound.range(sound))) }
        if (Self.fuzzyMinimumLength...Self.fuzzyMaximumLength).contains(word.unicodeScalars.count) {
            // One edit: the query with a letter more (its deletions are words), a letter
            // less or another letter (deletion variants shared with a word's).
            var variants: [UInt32] = [key]
            forEachDeletion(of: word) { variants.append($0) }
            var wordKeys: Set<UInt32> = []
            for variant in variants {
                if variant != key { found.append((.words, variant, false, words.range(variant))) }
                let r = deletions.range(variant)
                for p in r.prefix(64) { wordKeys.insert(deletions.value(at: p)) }
            }
            wordKeys.remove(key)
            for wordKey in wordKeys.sorted() { found.append((.words, wordKey, false, words.range(wordKey))) }
        }
        return found.filter { !$0.range.isEmpty }
    }

    /// `candidates(for:limit:postingLimit:)`, reusing the word lookups of earlier readings of the query.
    func candidates(for query: NameForm, limit: Int, postingLimit: Int = 256, memo: inout WordLookups) -> [Int] {
        // Each source: the list, the key, its range, and which bit it sets: bit 0 the joined
        // form, bit 1 its sound-alike key, bits 2 + 2i word i exactly, 3 + 2i word i by sound
        // or with one edit.
        var sources: [(list: List, key: UInt32, range: Range<Int>, bit: Int)] = []
        let joinedKey = fnv1a(query.joined)
        sources.append((.joined, joinedKey, joined.range(joinedKey), 0))
        sources.append((.joinedSound, query.joinedSound, joinedSound.range(query.joinedSound), 1))
        for (i, word) in query.words.prefix(14).enumerated() {
            let found: [(list: List, key: UInt32, exact: Bool, range: Range<Int>)]
            if let known = memo.byWord[word] {
                found = known
            } else {
                found = lookups(of: word, sound: query.wordSounds[i])
                memo.byWord[word] = found
            }
            for lookup in found { sources.append((lookup.list, lookup.key, lookup.range, lookup.exact ? 2 + 2 * i : 3 + 2 * i)) }
        }
        /// The joined form, its sound, or a query word (exact and approximate together).
        func group(_ bit: Int) -> Int { bit < 2 ? bit : 2 + (bit - 2) / 2 }
        // (form << 8 | bit) for every entry of the short lists. A group whose lists are all
        // long reads the first `postingLimit` entries of each; the joined form's are always
        // read, so whole-name matches are never missed.
        var hits: [UInt64] = []
        var long: [Int] = []
        var groupsWithShortList: UInt64 = 0
        for source in sources where !source.range.isEmpty && source.range.count <= postingLimit {
            groupsWithShortList |= 1 << UInt64(group(source.bit))
        }
        for (s, source) in sources.enumerated() where !source.range.isEmpty {
            let r = source.range
            let bit = source.bit
            if r.count <= postingLimit {
                // An approximate word (a sound-alike key, a one-edit neighbour) is weak evidence
                // and a short query word has hundreds of neighbours: the most important
                // `2 * limit` forms of each stand for it.
                let list = postings(sources[s].list)
                let read = bit < 2 || bit % 2 == 0 ? r : r.prefix(2 * limit)
                for p in read { hits.append(UInt64(list.value(at: p)) << 8 | UInt64(bit)) }
                continue
            }
            // Long lists of exact words are checked for the forms found; long lists of
            // approximate ones (sound-alike keys, one-edit variants) are weak evidence and
            // only read when nothing better is there.
            if bit == 0 || bit % 2 == 0 { long.append(s) }
            if bit == 0 || groupsWithShortList & (1 << UInt64(group(bit))) == 0 {
                let list = postings(sources[s].list)
                for p in r.prefix(2 * limit) { hits.append(UInt64(list.value(at: p)) << 8 | UInt64(bit)) }
            }
        }
        radixSort(&hits)
        // Each form once, as (score, form) packed so that ascending order is best score first,
        // then priority order.
        var ranked: [UInt64] = []
        ranked.reserveCapacity(hits.count)
        var i = 0
        let wordCount = min(query.words.count, 14)
        // The same name in its own script: checked for the forms found, never read for more.
        let scriptBit = 63
        if query.scriptKey != 0 {
            let range = scripts.range(query.scriptKey)
            if !range.isEmpty {
                sources.append((.scripts, query.scriptKey, range, scriptBit))
                long.append(sources.count - 1)
            }
        }
        var cursors = long.map { sources[$0].range.lowerBound }
        let longLists = long.map {
            (postings: postings(sources[$0].list), key: sources[$0].key, range: sources[$0].range, bit: UInt64(sources[$0].bit))
        }
        while i < hits.count {
            let form = hits[i] >> 8
            var bits: UInt64 = 0
            while i < hits.count, hits[i] >> 8 == form {
                bits |= 1 << (hits[i] & 0xFF)
                i += 1
            }
            // Forms come in ascending order, and so do a long list's: each list's cursor only moves on.
            for k in longLists.indices where bits & (1 << longLists[k].bit) == 0 {
                let list = longLists[k]
                cursors[k] = list.postings.seek(Postings.entry(list.key, UInt32(form)), from: cursors[k], in: list.range)
                if list.postings.holds(list.key, UInt32(form), at: cursors[k], in: list.range) { bits |= 1 << list.bit }
            }
            // The same name in its own script ("叶丽", not "叶李") first, then an exact joined
            // form; exact words outrank approximate ones.
            var score = (bits & 1 != 0 ? 4 * wordCount + 4 : 0) + (bits & 2 != 0 ? wordCount : 0)
            if bits & (1 << UInt64(scriptBit)) != 0 { score += 1_000 }
            for w in 0..<wordCount {
                score += bits & (1 << UInt64(2 + 2 * w)) != 0 ? 2 : bits & (1 << UInt64(3 + 2 * w)) != 0 ? 1 : 0
            }
            ranked.append(UInt64(UInt32.max - UInt32(score)) << 32 | form)
        }
        if ranked.count > limit { radixSort(&ranked) }
        return ranked.prefix(limit).map { Int($0 & 0xFFFF_FFFF) }
    }
}

/// The hashes of a word with one letter deleted, each position once.
func forEachDeletion(of word: String, _ body: (UInt32) -> Void) {
    let bytes = Array(word.utf8)
    // Delete whole scalars: skip UTF-8 continuation bytes as deletion points.
    var start = 0
    while start < bytes.count {
        var end = start + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        var hash: UInt32 = 2_166_136_261
        for byte in bytes[..<start] { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        for byte in bytes[end...] { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        body(hash)
        start = end
    }
}

/// A pointer handed to concurrent workers that each write their own slots.
struct UnsafeSendable<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}

extension VocabularySet {
    /// The candidate index of the set for a language, built once (callers for the same language
    /// wait for it) and kept with the set.
    func index(language: String) throws -> VocabularyIndex {
        try derived("index:\(language)") { try VocabularyIndex(items: items, language: language) }
    }
}
