/// A sorted multimap from a 32-bit key to 32-bit values, packed as `key << 32 | value` in one
/// array: 8 bytes an entry, built by one sort, read by binary search. Values of one key come
/// out in ascending order, which for form indices is priority order.
struct Postings: Sendable {
    private let entries: [UInt64]

    init(unsorted: [UInt64]) {
        var sorted = unsorted
        sorted.sort()
        // Drop exact duplicates (a word twice in one name).
        var write = 0
        for read in sorted.indices where read == 0 || sorted[read] != sorted[read - 1] {
            sorted[write] = sorted[read]
            write += 1
        }
        sorted.removeLast(sorted.count - write)
        entries = sorted
    }

    static func entry(_ key: UInt32, _ value: UInt32) -> UInt64 { UInt64(key) << 32 | UInt64(value) }

    var bytes: Int { entries.capacity * 8 }

    /// The first position in `range` whose entry is not below `target`.
    private func lowerBound(_ target: UInt64, in range: Range<Int>) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let mid = (low + high) / 2
            if entries[mid] < target { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Where the entries of `key` are.
    func range(_ key: UInt32) -> Range<Int> {
        let low = lowerBound(UInt64(key) << 32, in: 0..<entries.count)
        var end = low
        var step = 1
        // Gallop to the end of the run (most runs are short).
        while end + step <= entries.count, entries[end + step - 1] >> 32 == UInt64(key) {
            end += step
            step *= 2
        }
        var top = min(entries.count, end + step)
        while end < top {
            let mid = (end + top) / 2
            if entries[mid] >> 32 == UInt64(key) { end = mid + 1 } else { top = mid }
        }
        return low..<end
    }

    /// The value at a position of a range.
    func value(at position: Int) -> UInt32 { UInt32(truncatingIfNeeded: entries[position]) }

    /// Whether `key` holds `value`, searching only within `range` (the key's range).
    func contains(_ key: UInt32, _ value: UInt32, in range: Range<Int>) -> Bool {
        let target = Self.entry(key, value)
        let low = lowerBound(target, in: range)
        return low < range.upperBound && entries[low] == target
    }
}
