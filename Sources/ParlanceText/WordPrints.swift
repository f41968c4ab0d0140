/// A set of 4,096 bits that the phrase tables with many words check before hashing a word.
///
/// A word's print (`print(_:)`) is its length in bytes and its first two and last two bytes,
/// mixed into one of 4,096 bits, read without hashing the word; words run together have the
/// print of their join, found from the words (`print(joining:)`) without joining them. Keys
/// are normalized (`TextNormalizer.key`), so two equal keys have the same bytes and the same
/// print: a clear bit never rules out a key that is there. Where `Bits256`'s sketch (length,
/// first and last byte, in 256 bits) lets most words through a table of a thousand words (a
/// language's number words, its currencies' names), prints rule most of them out.
///
/// Public (not `package`), as `Bits256` is, so that its checks are inlined where they are made.
public struct WordPrints: Sendable {
    /// Empty until the first insertion (a set with nothing in it rules everything out).
    @usableFromInline var bits: [UInt64] = []

    /// An empty set: rules everything out.
    @inlinable public init() {}

    /// The prints of the words.
    @inlinable public init(_ words: some Sequence<String>) {
        for word in words { insert(word) }
    }

    /// Adds a word's print.
    @inlinable public mutating func insert(_ word: String) { set(Self.print(word)) }

    /// Adds the print of words run together.
    @inlinable public mutating func insert(joining words: ArraySlice<String>) { set(Self.print(joining: words)) }

    @inlinable mutating func set(_ bit: Int) {
        if bits.isEmpty { bits = [UInt64](repeating: 0, count: 64) }
        bits[bit >> 6] |= 1 << UInt64(bit & 63)
    }

    /// Whether the word may be one of the set's (false: it is none).
    @inlinable @inline(__always) public func contains(_ word: String) -> Bool { has(Self.print(word)) }

    /// Whether the words run together may be one of the set's (false: they are none).
    @inlinable @inline(__always) public func contains(joining words: ArraySlice<String>) -> Bool { has(Self.print(joining: words)) }

    @inlinable @inline(__always) func has(_ bit: Int) -> Bool {
        !bits.isEmpty && bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0
    }

    /// A word's bit: `mix` of its length in bytes and its first two and last two bytes (-1 for
    /// a byte it has not).
    @inlinable @inline(__always) public static func print(_ word: String) -> Int {
        let utf8 = word.utf8
        return utf8.withContiguousStorageIfAvailable { print(bytes: $0) } ?? Array(utf8).withUnsafeBufferPointer { print(bytes: $0) }
    }

    @inlinable @inline(__always) static func print(bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let n = bytes.count
        guard n > 0 else { return mix(count: 0, first: -1, second: -1, beforeLast: -1, last: -1) }
        return mix(
            count: n, first: Int(bytes[0]), second: n > 1 ? Int(bytes[1]) : -1, beforeLast: n > 1 ? Int(bytes[n - 2]) : -1,
            last: Int(bytes[n - 1]))
    }

    /// The bit of the words run together (`print(_:)` of their join), from each word's first
    /// and last two bytes.
    @inlinable public static func print(joining words: ArraySlice<String>) -> Int {
        var count = 0
        // The first two bytes and the last two (-1: none yet).
        var first = -1
        var second = -1
        var beforeLast = -1
        var last = -1
        func read(_ bytes: UnsafeBufferPointer<UInt8>) {
            let n = bytes.count
            for k in 0..<min(2, n) {
                if first < 0 {
                    first = Int(bytes[k])
                } else if second < 0 {
                    second = Int(bytes[k])
                }
            }
            for k in max(0, n - 2)..<n {
                beforeLast = last
                last = Int(bytes[k])
            }
            count += n
        }
        for word in words {
            if word.utf8.withContiguousStorageIfAvailable(read) == nil { Array(word.utf8).withUnsafeBufferPointer(read) }
        }
        return mix(count: count, first: first, second: second, beforeLast: beforeLast, last: last)
    }

    /// One of 4,096 bits from a length and four bytes (each -1 to 255).
    @inlinable @inline(__always) static func mix(count: Int, first: Int, second: Int, beforeLast: Int, last: Int) -> Int {
        var v = UInt64(truncatingIfNeeded: count) & 0xFFFF
        v |= UInt64(first + 1) << 16 | UInt64(second + 1) << 25 | UInt64(beforeLast + 1) << 34 | UInt64(last + 1) << 43
        return Int((v &* 0x9E37_79B9_7F4A_7C15) >> 52)
    }
}
