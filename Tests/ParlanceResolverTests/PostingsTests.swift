import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceResolver

/// The index's sorted posting lists: the radix sort they are built with, and one-thread and
/// two-thread builds giving the same index.
@Suite struct PostingsTests {
    @Test(arguments: [0, 1, 2, 255, 256, 257, 1_000, 70_000])
    func radixSortSortsAsSortDoes(count: Int) {
        var random = SplitMix64(seed: UInt64(count))
        // Full 64-bit values; entries as postings have them (small keys and values, bytes shared
        // by every entry); many duplicates.
        let shapes: [[UInt64]] = [
            (0..<count).map { _ in random.next() },
            (0..<count).map { _ in Postings.entry(UInt32(truncatingIfNeeded: random.next() % 5_000), UInt32(random.next() % 300_000)) },
            (0..<count).map { _ in random.next() % 7 },
            [UInt64](repeating: 42, count: count)
        ]
        for values in shapes {
            var radix = values
            radixSort(&radix)
            #expect(radix == values.sorted())
        }
    }

    @Test func postingsFindEveryValueOfAKey() {
        var random = SplitMix64(seed: 9)
        var entries: [UInt64] = []
        var expected: [UInt32: Set<UInt32>] = [:]
        for _ in 0..<20_000 {
            let key = UInt32(random.next() % 1_000)
            let value = UInt32(random.next() % 100_000)
            entries.append(Postings.entry(key, value))
            expected[key, default: []].insert(value)
        }
        // A long run, as a common word has: the cursor must jump far and land exactly.
        for value in stride(from: UInt32(0), to: 60_000, by: 3) {
            entries.append(Postings.entry(7_777, value))
            expected[7_777, default: []].insert(value)
        }
        let postings = Postings(unsorted: entries)
        for (key, values) in expected {
            let range = postings.range(key)
            let found = range.map { postings.value(at: $0) }
            #expect(found == values.sorted(), "key \(key)")
            // Ascending values checked one after another with a cursor that only moves on (as
            // a long list is checked for the forms found): every 97th value, held or not, then
            // every value of the key divisible by 7.
            var cursor = range.lowerBound
            for value in stride(from: UInt32(0), to: 100_000, by: 97) {
                cursor = postings.seek(Postings.entry(key, value), from: cursor, in: range)
                #expect(postings.holds(key, value, at: cursor, in: range) == values.contains(value), "key \(key), value \(value)")
            }
            cursor = range.lowerBound
            for value in values.sorted() where value % 7 == 0 {
                cursor = postings.seek(Postings.entry(key, value), from: cursor, in: range)
                #expect(postings.holds(key, value, at: cursor, in: range), "key \(key), value \(value)")
            }
        }
        #expect(postings.range(5_000).isEmpty)
    }

    @Test func oneThreadAndTwoBuildTheSameIndex() throws {
        let names = ["Ana Lima", "Анна Петрова", "王李", "José Ramírez", "Jörg Schäfer", "さくら", "Bobo le Grand"]
        let items = (0..<12_000).map { VocabularyItem(id: "n\($0)", phrase: names[$0 % names.count] + " \($0 % 97)") }
        let one = try VocabularyIndex(items: items, language: "en", jobs: 1)
        let two = try VocabularyIndex(items: items, language: "en", jobs: 2)
        #expect(one.formText == two.formText)
        #expect(one.wordSounds == two.wordSounds)
        #expect(one.joinedSounds == two.joinedSounds)
        var sounds = SoundKeys(rules: try SoundAlike.forLanguage("en"))
        let query = NameForm("Ana Lima 5", sounds: &sounds)
        #expect(one.candidates(for: query, limit: 32) == two.candidates(for: query, limit: 32))
        #expect(!one.candidates(for: query, limit: 32).isEmpty)
    }
}
