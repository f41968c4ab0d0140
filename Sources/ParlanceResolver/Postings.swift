/// A sorted multimap from a 32-bit key to 32-bit values, packed as `key << 32 | value` in one
/// array: 8 bytes an entry, built by one sort, read by binary search. Values of one key come
/// out in ascending order, which for form indices is priority order.
struct Postings: Sendable {
    private let entries: [UInt64]
    /// Where each bucket of keys starts: the keys' top `bucketBits` bits index it, and entry
    /// `directory[b]..<directory[b + 1]` holds bucket b's keys, so that a lookup searches a
    /// few entries instead of all of them (keys are hashes, spread evenly).
    private let directory: [UInt32]
    private let bucketShift: UInt64

    init(unsorted: [UInt64]) {
        var sorted = unsorted
        radixSort(&sorted)
        // Drop exact duplicates (a word twice in one name).
        var write = 0
        for read in sorted.indices where read == 0 || sorted[read] != sorted[read - 1] {
            sorted[write] = sorted[read]
            write += 1
        }
        sorted.removeLast(sorted.count - write)
        entries = sorted
        // About four entries a bucket, at most 2^22 buckets.
        var bits: UInt64 = 0
        while bits < 22, (1 << (bits + 2)) < sorted.count { bits += 1 }
        bucketShift = 64 - bits
        var directory = [UInt32](repeating: 0, count: (1 << Int(bits)) + 1)
        var position = 0
        for bucket in 0..<(1 << Int(bits)) {
            directory[bucket] = UInt32(position)
            while position < sorted.count, Int(Self.bucket(of: sorted[position], shift: bucketShift)) == bucket { position += 1 }
        }
        directory[1 << Int(bits)] = UInt32(sorted.count)
        self.directory = directory
    }

    @inline(__always)
    private static func bucket(of entry: UInt64, shift: UInt64) -> UInt64 { shift == 64 ? 0 : entry >> shift }

    static func entry(_ key: UInt32, _ value: UInt32) -> UInt64 { UInt64(key) << 32 | UInt64(value) }

    var bytes: Int { entries.capacity * 8 + directory.capacity * 4 }

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
        let first = UInt64(key) << 32
        let bucket = Int(Self.bucket(of: first, shift: bucketShift))
        let within = Int(directory[bucket])..<Int(directory[bucket + 1])
        let low = lowerBound(first, in: within)
        // Most runs are a few entries long; a common word's runs to thousands: gallop, then halve.
        var end = low
        var step = 1
        while end + step <= within.upperBound, entries[end + step - 1] >> 32 == UInt64(key) {
            end += step
            step *= 2
        }
        var top = min(within.upperBound, end + step)
        while end < top {
            let mid = (end + top) / 2
            if entries[mid] >> 32 == UInt64(key) { end = mid + 1 } else { top = mid }
        }
        return low..<end
    }

    /// The value at a position of a range.
    func value(at position: Int) -> UInt32 { UInt32(truncatingIfNeeded: entries[position]) }

    /// The first position from `start` on, within `range`, whose entry is not below `target`:
    /// gallops forward from `start`, so that checking ascending values one after another against
    /// one key's run costs a few steps each instead of a search of the whole run.
    func seek(_ target: UInt64, from start: Int, in range: Range<Int>) -> Int {
        var low = start
        var step = 1
        while low + step <= range.upperBound, entries[low + step - 1] < target {
            low += step
            step *= 2
        }
        return lowerBound(target, in: low..<min(range.upperBound, low + step))
    }

    /// Whether the entry at `position` is `key` holding `value`.
    func holds(_ key: UInt32, _ value: UInt32, at position: Int, in range: Range<Int>) -> Bool {
        position < range.upperBound && entries[position] == Self.entry(key, value)
    }
}

/// Sorts 64-bit integers ascending, a byte at a time from the lowest (least significant digit
/// radix sort): linear in the count, where a comparison sort of a million names' postings spends
/// most of an index build. A byte that is the same in every entry is skipped.
func radixSort(_ values: inout [UInt64]) {
    guard values.count > 256 else {
        values.sort()
        return
    }
    var buffer = [UInt64](repeating: 0, count: values.count)
    var counts = [Int](repeating: 0, count: 8 * 256)
    for value in values {
        for byte in 0..<8 { counts[byte << 8 | Int((value >> UInt64(byte * 8)) & 0xFF)] += 1 }
    }
    values.withUnsafeMutableBufferPointer { source in
        buffer.withUnsafeMutableBufferPointer { target in
            var from = source
            var to = target
            var inSource = true
            for byte in 0..<8 {
                let base = byte << 8
                // All entries share this byte: nothing to move.
                if counts[base..<(base + 256)].contains(from.count) { continue }
                var offsets = [Int](repeating: 0, count: 256)
                var total = 0
                for digit in 0..<256 {
                    offsets[digit] = total
                    total += counts[base + digit]
                }
                let shift = UInt64(byte * 8)
                for value in from {
                    let digit = Int((value >> shift) & 0xFF)
                    to[offsets[digit]] = value
                    offsets[digit] += 1
                }
                swap(&from, &to)
                inSource.toggle()
            }
            if !inSource { _ = source.update(fromContentsOf: from) }
        }
    }
}
