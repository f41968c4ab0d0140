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

    var count: Int { entries.count }
    var bytes: Int { entries.capacity * 8 }

    /// The values stored under `key`, at most `limit` of them (the lowest).
    func values(_ key: UInt32, limit: Int = .max, into output: inout [UInt32]) {
        var low = 0, high = entries.count
        let target = UInt64(key) << 32
        while low < high {
            let mid = (low + high) / 2
            if entries[mid] < target { low = mid + 1 } else { high = mid }
        }
        var i = low, taken = 0
        while i < entries.count, taken < limit, entries[i] >> 32 == UInt64(key) {
            output.append(UInt32(truncatingIfNeeded: entries[i]))
            i += 1
            taken += 1
        }
    }

    /// Where the entries of `key` are.
    func range(_ key: UInt32) -> Range<Int> {
        let target = UInt64(key) << 32
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid] < target { low = mid + 1 } else { high = mid }
        }
        var end = low, step = 1
        // Gallop to the end of the run (most runs are short).
        while end + step <= entries.count, entries[end + step - 1] >> 32 == UInt64(key) { end += step; step *= 2 }
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
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let mid = (low + high) / 2
            if entries[mid] < target { low = mid + 1 } else { high = mid }
        }
        return low < range.upperBound && entries[low] == target
    }

    func contains(_ key: UInt32) -> Bool {
        var found: [UInt32] = []
        values(key, limit: 1, into: &found)
        return !found.isEmpty
    }
}
