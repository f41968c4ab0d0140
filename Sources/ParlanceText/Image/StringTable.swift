import Foundation

/// Strings and their rows (a model's feature names, the name tables' phrases), as three flat arrays: the names' bytes end to end,
/// where each ends, and an open-addressing hash table of rows. Looking a feature up hashes its
/// bytes once and compares bytes; loading one from an image copies three blocks, with no string
/// made and no dictionary filled (a model has tens of thousands of features).
package struct FeatureTable: Sendable {
    private var bytes: [UInt8] = []
    /// Where each row's name ends in `bytes` (it starts where the previous one ends).
    private var ends: [Int32] = []
    /// Rows by hash, -1 where empty; a power of two, at least twice the rows.
    private var slots: [Int32] = [-1]

    /// The table of `names`, row `n` being `names[n]`; a name given twice keeps its first row.
    package init(_ names: [String]) {
        var bytes: [UInt8] = []
        var ends: [Int32] = []
        for var name in names {
            name.withUTF8 { bytes.append(contentsOf: $0) }
            ends.append(Int32(bytes.count))
        }
        self.init(bytes: bytes, ends: ends)
    }

    /// The table of names given as their UTF-8 end to end, row `n` ending at `ends[n]` (and
    /// starting where row `n - 1` ends); a name given twice keeps its first row.
    package init(bytes: [UInt8], ends: [Int32]) {
        self.bytes = bytes
        self.ends = ends
        var size = 1
        while size < 2 * max(1, ends.count) { size *= 2 }
        slots = [Int32](repeating: -1, count: size)
        // Rows in order, each at the first empty slot from its hash's: a name given twice has
        // its first row earlier on its probe sequence than any later one, so a lookup (which
        // stops at the first row of the name) finds the first, with no lookup made here.
        for n in 0..<ends.count {
            var slot = Int(slotHash(n) & UInt64(size - 1))
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int32(n)
        }
    }

    /// The table of a dictionary's features by row (rows 0..<count, each once).
    package init(rows: [String: Int32]) {
        var names = [String](repeating: "", count: rows.count)
        for (name, row) in rows { names[Int(row)] = name }
        self.init(names)
    }

    package var count: Int { ends.count }

    /// The feature names, in row order.
    package var names: [String] { (0..<count).map { String(decoding: name(of: $0), as: UTF8.self) } }

    /// The string of a row.
    package func string(_ row: Int) -> String { String(decoding: name(of: row), as: UTF8.self) }

    private func name(of row: Int) -> ArraySlice<UInt8> {
        bytes[(row == 0 ? 0 : Int(ends[row - 1]))..<Int(ends[row])]
    }

    private func slotHash(_ row: Int) -> UInt64 { name(of: row).withUnsafeBytes { Self.hash($0) } }

    /// FNV-1a of bytes.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    /// The row of a feature; nil for a feature the model has no weights for.
    package subscript(feature: String) -> Int32? {
        var feature = feature
        return feature.withUTF8 { row(named: UnsafeRawBufferPointer($0)) }
    }

    /// The row of a name given as its UTF-8 bytes; nil when no row has it.
    package func row(bytes: UnsafeRawBufferPointer) -> Int32? { row(named: bytes) }

    /// Whether each row's name comes after the one before it, byte by byte (no name twice).
    package func ascendsByBytes() -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            ends.withUnsafeBufferPointer { ends in
                var start = 0
                var previous = 0..<0
                for (row, end) in ends.enumerated() {
                    let current = start..<Int(end)
                    if row > 0 {
                        let common = min(previous.count, current.count)
                        let order =
                            common == 0
                            ? 0 : memcmp(bytes.baseAddress! + previous.lowerBound, bytes.baseAddress! + current.lowerBound, common)
                        if order > 0 || (order == 0 && previous.count >= current.count) { return false }
                    }
                    previous = current
                    start = Int(end)
                }
                return true
            }
        }
    }

    /// The row of the name `bytes`, nil when none has it.
    private func row(named bytes: ArraySlice<UInt8>) -> Int32? {
        bytes.withUnsafeBytes { row(named: $0) }
    }

    /// The row of a name given as its UTF-8 bytes.
    private func row(named query: UnsafeRawBufferPointer) -> Int32? {
        let mask = slots.count - 1
        var slot = Int(Self.hash(query) & UInt64(mask))
        return bytes.withUnsafeBufferPointer { bytes in
            ends.withUnsafeBufferPointer { ends in
                slots.withUnsafeBufferPointer { slots in
                    while true {
                        let row = Int(slots[slot])
                        if row < 0 { return nil }
                        let start = row == 0 ? 0 : Int(ends[row - 1])
                        let end = Int(ends[row])
                        if end - start == query.count,
                            query.count == 0 || memcmp(bytes.baseAddress! + start, query.baseAddress!, query.count) == 0
                        {
                            return Int32(row)
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }
}

extension FeatureTable: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.writePlain(bytes)
        image.writePlain(ends)
        image.writePlain(slots)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        bytes = try image.readPlain()
        ends = try image.readPlain()
        slots = try image.readPlain()
        // Offsets that rise to the bytes' end, a table of a power of two, rows in range: what a
        // lookup reads is there.
        let size = slots.count
        guard size > 0, size & (size - 1) == 0, size >= ends.count, zip([0] + ends, ends).allSatisfy({ $0 <= $1 }),
            (ends.last.map { Int($0) } ?? 0) == bytes.count, slots.allSatisfy({ $0 < Int32(ends.count) }),
            slots.contains(-1)
        else { throw ImageError("a feature table does not hold") }
    }
}
