import Foundation
import ParlanceParser
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
    public let language: String
    /// The items, in priority order (most important first).
    public let items: [VocabularyItem]

    // One entry per form (an item's phrase, and its pronunciation hint if any).
    let formItem: [UInt32]
    let formIsPronunciation: [Bool]
    /// The form's folded Latin words joined by single spaces.
    let formText: [String]
    let soundStart: [UInt32]
    let wordSounds: [UInt32]
    let joinedSounds: [UInt32]

    let joined: Postings
    let joinedSound: Postings
    let words: Postings
    let wordSound: Postings
    /// Deletion variant of a word (and the word itself) → the word's hash.
    let deletions: Postings

    /// Words shorter than this take no part in one-edit retrieval.
    static let fuzzyMinimumLength = 4

    public var formCount: Int { formItem.count }

    /// Builds the index, using up to `jobs` threads.
    public init(items: [VocabularyItem], language: String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        self.language = language
        self.items = items
        let rules = try SoundAlike.forLanguage(language)

        struct Chunk {
            var formItem: [UInt32] = []
            var formIsPronunciation: [Bool] = []
            var formText: [String] = []
            var soundCounts: [UInt32] = []
            var wordSounds: [UInt32] = []
            var joinedSounds: [UInt32] = []
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
                    for (text, isPronunciation) in [(item.phrase, false)] + (item.pronunciation.map { [($0, true)] } ?? []) {
                        let form = NameForm(text, sounds: &sounds)
                        guard !form.isEmpty else { continue }
                        chunk.formItem.append(UInt32(i))
                        chunk.formIsPronunciation.append(isPronunciation)
                        chunk.formText.append(form.words.joined(separator: " "))
                        chunk.soundCounts.append(UInt32(form.words.count))
                        chunk.wordSounds.append(contentsOf: form.wordSounds)
                        chunk.joinedSounds.append(form.joinedSound)
                        chunk.joinedKeys.append(fnv1a(form.joined))
                        chunk.wordKeys.append(form.words.map(fnv1a))
                        for word in form.words where word.unicodeScalars.count >= Self.fuzzyMinimumLength {
                            chunk.distinctWords.insert(word)
                        }
                    }
                }
                box.pointer[w] = chunk
            }
        }

        var formItem: [UInt32] = [], formIsPronunciation: [Bool] = [], formText: [String] = []
        var soundStart: [UInt32] = [0], wordSounds: [UInt32] = [], joinedSounds: [UInt32] = []
        var joinedEntries: [UInt64] = [], joinedSoundEntries: [UInt64] = []
        var wordEntries: [UInt64] = [], wordSoundEntries: [UInt64] = []
        var distinct: Set<String> = []
        for chunk in chunks {
            let base = UInt32(formItem.count)
            formItem += chunk.formItem
            formIsPronunciation += chunk.formIsPronunciation
            formText += chunk.formText
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
            }
            distinct.formUnion(chunk.distinctWords)
        }
        self.formItem = formItem
        self.formIsPronunciation = formIsPronunciation
        self.formText = formText
        self.soundStart = soundStart
        self.wordSounds = wordSounds
        self.joinedSounds = joinedSounds
        self.joined = Postings(unsorted: joinedEntries)
        self.joinedSound = Postings(unsorted: joinedSoundEntries)
        self.words = Postings(unsorted: wordEntries)
        self.wordSound = Postings(unsorted: wordSoundEntries)

        var deletionEntries: [UInt64] = []
        deletionEntries.reserveCapacity(distinct.count * 8)
        for word in distinct {
            let key = fnv1a(word)
            forEachDeletion(of: word) { deletionEntries.append(Postings.entry($0, key)) }
        }
        self.deletions = Postings(unsorted: deletionEntries)
    }

    /// Approximate bytes held by the index (items' strings not counted).
    public var indexBytes: Int {
        joined.bytes + joinedSound.bytes + words.bytes + wordSound.bytes + deletions.bytes
            + formItem.capacity * 4 + formIsPronunciation.capacity + formText.capacity * 16
            + formText.reduce(0) { $0 + ($1.utf8.count > 15 ? $1.utf8.count + 32 : 0) }
            + soundStart.capacity * 4 + wordSounds.capacity * 4 + joinedSounds.capacity * 4
    }

    /// The sound-alike keys of a form's words.
    func sounds(ofForm form: Int) -> ArraySlice<UInt32> {
        wordSounds[Int(soundStart[form])..<Int(soundStart[form + 1])]
    }

    /// Candidate forms for a query, most promising first: forms matched by more of the
    /// query's words (and by the joined form) before others, then in priority order.
    func candidates(for query: NameForm, limit: Int, postingLimit: Int = 512) -> [Int] {
        // (form << 8 | source bit index): bit 0 = joined, bit 1 + i = query word i.
        var hits: [UInt64] = []
        var found: [UInt32] = []
        func collect(_ bit: Int) {
            for form in found { hits.append(UInt64(form) << 8 | UInt64(bit)) }
            found.removeAll(keepingCapacity: true)
        }
        joined.values(fnv1a(query.joined), limit: postingLimit, into: &found)
        joinedSound.values(query.joinedSound, limit: postingLimit, into: &found)
        collect(0)
        for (i, word) in query.words.prefix(7).enumerated() {
            let key = fnv1a(word)
            words.values(key, limit: postingLimit, into: &found)
            if word.unicodeScalars.count >= 2 {
                wordSound.values(query.wordSounds[i], limit: postingLimit, into: &found)
            }
            if word.unicodeScalars.count >= Self.fuzzyMinimumLength {
                // One edit: the query with a letter more (its deletions are words), a letter
                // less or another letter (deletion variants shared with a word's).
                var wordKeys: Set<UInt32> = []
                var variantKeys: [UInt32] = [key]
                forEachDeletion(of: word) { variantKeys.append($0) }
                var scratch: [UInt32] = []
                for variant in variantKeys {
                    words.values(variant, limit: postingLimit, into: &found)
                    deletions.values(variant, limit: 64, into: &scratch)
                }
                wordKeys.formUnion(scratch)
                wordKeys.remove(key)
                for wordKey in wordKeys.sorted() { words.values(wordKey, limit: postingLimit, into: &found) }
            }
            collect(1 + i)
        }
        hits.sort()
        var ranked: [(form: Int, score: Int)] = []
        var i = 0
        while i < hits.count {
            let form = hits[i] >> 8
            var bits: UInt64 = 0
            while i < hits.count, hits[i] >> 8 == form {
                bits |= 1 << (hits[i] & 0xFF)
                i += 1
            }
            // The joined form counts as much as all the words.
            let score = (bits & 1 != 0 ? query.words.count : 0) + (bits >> 1).nonzeroBitCount
            ranked.append((Int(form), score))
        }
        ranked.sort { $0.score != $1.score ? $0.score > $1.score : $0.form < $1.form }
        return ranked.prefix(limit).map(\.form)
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
