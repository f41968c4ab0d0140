/// A set of 256 bits: what the phrase tables check before hashing a word.
///
/// `sketch(_:)` gives a word's bit from its UTF-8 length and its first and last bytes, read
/// without hashing it: a table that sets the bit of each of its words rules out any word whose
/// bit is clear. Keys are normalized (`TextNormalizer.key`), so two equal keys have the same
/// bytes and the same bit: a clear bit never rules out a key that is there.
///
/// Public (not `package`) so that its checks are inlined where the parser makes them: this
/// compiler inlines `@inlinable` code across modules for public declarations, not for
/// `package` ones, and these checks run a few hundred thousand times a second per core.
public struct Bits256: Sendable {
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// No bit set: rules everything out.
    @inlinable public init() {}

    /// Sets a bit (taken modulo 256).
    @inlinable public mutating func insert(_ bit: Int) {
        let mask = UInt64(1) << UInt64(bit & 63)
        switch (bit >> 6) & 3 {
        case 0: words.0 |= mask
        case 1: words.1 |= mask
        case 2: words.2 |= mask
        default: words.3 |= mask
        }
    }

    /// Whether a bit (taken modulo 256) is set.
    @inlinable @inline(__always) public func contains(_ bit: Int) -> Bool {
        let mask = UInt64(1) << UInt64(bit & 63)
        switch (bit >> 6) & 3 {
        case 0: return words.0 & mask != 0
        case 1: return words.1 & mask != 0
        case 2: return words.2 & mask != 0
        default: return words.3 & mask != 0
        }
    }

    /// A word's bit: from its length in bytes and its first and last bytes.
    @inlinable @inline(__always) public static func sketch(_ word: String) -> Int {
        let utf8 = word.utf8
        // Read from the word's storage when it has one (native strings do), else byte by byte.
        return utf8.withContiguousStorageIfAvailable { bytes in
            sketch(count: bytes.count, first: bytes.first, last: bytes.last)
        } ?? sketch(count: utf8.count, first: utf8.first, last: utf8.last)
    }

    /// The bit of a word of `count` bytes that starts and ends with these bytes (nil: empty).
    @inlinable @inline(__always) public static func sketch(count: Int, first: UInt8?, last: UInt8?) -> Int {
        var h = count &* 31
        if let first { h = h &+ Int(first) &* 7 }
        if let last { h ^= Int(last) << 2 }
        return h & 255
    }

    /// The bit of the words run together, worked out from the words (no string made).
    @inlinable @inline(__always) public static func sketch(joining words: ArraySlice<String>) -> Int {
        let ends = ends(joining: words)
        return sketch(count: ends.count, first: ends.first, last: ends.last)
    }

    /// The length in bytes and the first and last bytes of the words run together (no string
    /// made).
    @inlinable @inline(__always) public static func ends(joining words: ArraySlice<String>) -> (count: Int, first: UInt8?, last: UInt8?) {
        var count = 0
        var first: UInt8?
        var last: UInt8?
        for word in words {
            let utf8 = word.utf8
            let (n, head, tail) =
                utf8.withContiguousStorageIfAvailable { bytes in (bytes.count, bytes.first, bytes.last) }
                ?? (utf8.count, utf8.first, utf8.last)
            count += n
            if first == nil { first = head }
            if let tail { last = tail }
        }
        return (count, first, last)
    }

    /// A second bit for the same length and ends, mixed otherwise than `sketch(count:first:last:)`:
    /// a table that sets both bits of each of its words rules out a word either of whose bits
    /// is clear (two tables of 256 bits rule out more than one of 512 when a table holds many
    /// words).
    @inlinable @inline(__always) public static func secondSketch(count: Int, first: UInt8?, last: UInt8?) -> Int {
        var h = count &* 113
        if let first { h ^= Int(first) &* 29 }
        if let last { h = h &+ Int(last) &* 11 }
        return (h ^ (h >> 8)) & 255
    }
}
