import Foundation

/// A value written to a compiled image (`ImageCache`) and read back: what a language's
/// grammar, lexicons and models are once built, so that a later start reads them instead of
/// building them again.
///
/// The format is plain and positional: integers as eight bytes little-endian, a string as its
/// UTF-8 length and bytes, a collection as its count and its elements, and arrays of plain
/// numbers as their bytes at once. A type writes its fields in one order and reads them in
/// the same order; the image's header names the format's version, so a change of layout is a
/// new version, never a misread. Every read is bounds-checked: a damaged image throws
/// `ImageError`, and the cache then builds the value again.
package protocol ImageCodable {
    func write(to image: inout ImageWriter)
    init(from image: inout ImageReader) throws(ImageError)
}

/// Why an image could not be read: it is damaged, cut short or of another layout.
package struct ImageError: Error, CustomStringConvertible {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// Appends values to an image's bytes.
package struct ImageWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func write(_ value: Int) { withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func write(_ value: Int32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func write(_ value: UInt8) { bytes.append(value) }
    package mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }
    package mutating func write(_ value: Double) { write(Int(Int64(bitPattern: value.bitPattern))) }
    package mutating func write(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            write(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }
    package mutating func write<T: ImageCodable>(_ value: T) { value.write(to: &self) }

    /// A part read only when asked (`ImageReader.block()`): its length, then what `body` writes.
    package mutating func writeBlock(_ body: (inout ImageWriter) -> Void) {
        var inner = ImageWriter()
        body(&inner)
        write(inner.bytes.count)
        bytes.append(contentsOf: inner.bytes)
    }

    /// Plain values to be read in place (`ImageReader.readAligned`): the count, zeros up to a
    /// multiple of eight bytes from the payload's start (which the file keeps at a multiple of
    /// eight), then the values' bytes.
    package mutating func writeAligned<T: ImagePlain>(_ values: UnsafeBufferPointer<T>) {
        write(values.count)
        while bytes.count % 8 != 0 { bytes.append(0) }
        bytes.append(contentsOf: UnsafeRawBufferPointer(values))
    }

    /// An array of plain numbers (`ImagePlain`), all its bytes at once.
    package mutating func writePlain<T: ImagePlain>(_ values: [T]) {
        write(values.count)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
}

/// Part of an image left unread until asked for (`ImageWriter.writeBlock`,
/// `ImageReader.block()`): the image's bytes stay mapped, and the part is read on first use.
package struct ImageBlock: Sendable {
    let data: Data
    let range: Range<Int>

    /// Reads the part with `body`, which must read it to its end.
    package func read<T>(_ body: (inout ImageReader) throws(ImageError) -> T) throws(ImageError) -> T {
        let result: Result<T, ImageError> = data.withUnsafeBytes { raw in
            do throws(ImageError) {
                var reader = ImageReader(UnsafeRawBufferPointer(rebasing: raw[range]))
                let value = try body(&reader)
                guard reader.isAtEnd else { throw ImageError("a block has bytes past its end") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// Reads values from an image's bytes, in the order they were written.
package struct ImageReader {
    private let base: UnsafeRawBufferPointer
    private var position = 0
    /// The image's bytes, which arrays read in place keep alive (`readAligned`).
    private var owner: Data?

    /// A reader over `bytes`, which must outlive it.
    package init(_ bytes: UnsafeRawBufferPointer) { self.base = bytes }

    /// A reader over `bytes`, which lie inside `data`.
    init(_ bytes: UnsafeRawBufferPointer, owner data: Data) {
        self.base = bytes
        self.owner = data
    }

    /// A part written by `ImageWriter.writeBlock`, skipped now and read when asked.
    package mutating func block() throws(ImageError) -> ImageBlock {
        let length = try count(least: 1)
        // A copy of the part: the image's mapping is let go once read, not kept for a part.
        return ImageBlock(data: Data(try take(length)), range: 0..<length)
    }

    package var isAtEnd: Bool { position == base.count }

    private mutating func take(_ count: Int) throws(ImageError) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= base.count - position else { throw ImageError("the image is cut short") }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: base[position..<(position + count)])
    }

    package mutating func read(_: Int.Type = Int.self) throws(ImageError) -> Int {
        let raw = try take(8)
        return Int(Int64(littleEndian: raw.loadUnaligned(as: Int64.self)))
    }
    package mutating func read(_: Int32.Type) throws(ImageError) -> Int32 {
        Int32(littleEndian: try take(4).loadUnaligned(as: Int32.self))
    }
    package mutating func read(_: UInt8.Type) throws(ImageError) -> UInt8 { try take(1)[0] }
    package mutating func read(_: Bool.Type) throws(ImageError) -> Bool {
        switch try read(UInt8.self) {
        case 0: return false
        case 1: return true
        default: throw ImageError("a flag is neither 0 nor 1")
        }
    }
    package mutating func read(_: Double.Type) throws(ImageError) -> Double { Double(bitPattern: UInt64(bitPattern: Int64(try read()))) }
    package mutating func read(_: String.Type) throws(ImageError) -> String {
        let count = try read()
        return String(decoding: try take(count), as: UTF8.self)
    }
    package mutating func read<T: ImageCodable>(_: T.Type = T.self) throws(ImageError) -> T { try T(from: &self) }

    /// A count of elements, each at least `least` bytes: a count the rest of the image cannot
    /// hold is damage, found before anything is allocated for it.
    package mutating func count(least: Int = 1) throws(ImageError) -> Int {
        let count = try read()
        guard count >= 0, count <= (base.count - position) / max(least, 1) else { throw ImageError("a count is out of range") }
        return count
    }

    /// An array written by `writeAligned`: in place in the image's mapped bytes when the reader
    /// has them and they are aligned for `T`, else copied.
    package mutating func readAligned<T: ImagePlain>(_: T.Type = T.self) throws(ImageError) -> PlainStorage<T> {
        let count = try count(least: MemoryLayout<T>.stride)
        let padding = (8 - position % 8) % 8
        _ = try take(padding)
        let raw = try take(count * MemoryLayout<T>.stride)
        if let owner, count > 0, let base = raw.baseAddress, Int(bitPattern: base) % MemoryLayout<T>.alignment == 0 {
            return PlainStorage(mapped: UnsafeBufferPointer(start: base.assumingMemoryBound(to: T.self), count: count), in: owner)
        }
        return PlainStorage(Self.copy(raw, count: count))
    }

    /// An array written by `writePlain`.
    package mutating func readPlain<T: ImagePlain>(_: T.Type = T.self) throws(ImageError) -> [T] {
        let count = try count(least: MemoryLayout<T>.stride)
        return Self.copy(try take(count * MemoryLayout<T>.stride), count: count)
    }

    /// `count` plain values copied out of `raw`.
    private static func copy<T: ImagePlain>(_ raw: UnsafeRawBufferPointer, count: Int) -> [T] {
        // No values: the empty array as it is (making one of capacity 0 writes its count into
        // the shared empty storage, a write two threads reading images at once would race on).
        guard count > 0 else { return [] }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
            initialized = count
        }
    }
}

/// An array of plain values that may live in an image's mapped bytes (`ImageReader.readAligned`):
/// read in place, with no copy, the image kept mapped as long as the array lives. Made from
/// an array, it holds a copy of its own.
package final class PlainStorage<T: ImagePlain>: @unchecked Sendable {
    /// The values; valid as long as this object lives.
    package let buffer: UnsafeBufferPointer<T>
    private let image: Data?
    private let allocated: UnsafeMutableBufferPointer<T>?

    package init(_ values: [T]) {
        let copy = UnsafeMutableBufferPointer<T>.allocate(capacity: max(values.count, 1))
        _ = copy.initialize(from: values)
        allocated = copy
        buffer = UnsafeBufferPointer(rebasing: copy[0..<values.count])
        image = nil
    }

    /// Values inside `image`'s bytes (which `Data` keeps at one address while it lives: a
    /// mapped file, or a heap block never mutated).
    init(mapped buffer: UnsafeBufferPointer<T>, in image: Data) {
        self.buffer = buffer
        self.image = image
        allocated = nil
    }

    deinit { allocated?.deallocate() }
}

/// A type whose values are their bytes (no references, no padding that matters): arrays of
/// them are written and read as one block.
package protocol ImagePlain: BitwiseCopyable {}
extension Int32: ImagePlain {}
extension UInt8: ImagePlain {}
extension UInt32: ImagePlain {}

extension String: ImageCodable {
    package func write(to image: inout ImageWriter) { image.write(self) }
    package init(from image: inout ImageReader) throws(ImageError) { self = try image.read(String.self) }
}

extension Int: ImageCodable {
    package func write(to image: inout ImageWriter) { image.write(self) }
    package init(from image: inout ImageReader) throws(ImageError) { self = try image.read(Int.self) }
}

extension Int64: ImageCodable {
    package func write(to image: inout ImageWriter) { image.write(Int(self)) }
    package init(from image: inout ImageReader) throws(ImageError) { self = Int64(try image.read(Int.self)) }
}

extension Bool: ImageCodable {
    package func write(to image: inout ImageWriter) { image.write(self) }
    package init(from image: inout ImageReader) throws(ImageError) { self = try image.read(Bool.self) }
}

extension Double: ImageCodable {
    package func write(to image: inout ImageWriter) { image.write(self) }
    package init(from image: inout ImageReader) throws(ImageError) { self = try image.read(Double.self) }
}

extension Array: ImageCodable where Element: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(count)
        for element in self { element.write(to: &image) }
    }
    package init(from image: inout ImageReader) throws(ImageError) {
        let count = try image.count()
        var result: [Element] = []
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(try Element(from: &image)) }
        self = result
    }
}

extension Optional: ImageCodable where Wrapped: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(self != nil)
        if let value = self { value.write(to: &image) }
    }
    package init(from image: inout ImageReader) throws(ImageError) {
        self = try image.read(Bool.self) ? try Wrapped(from: &image) : nil
    }
}

/// Sets are written sorted when their elements are strings, so that one grammar always gives
/// the same bytes.
extension Set: ImageCodable where Element: ImageCodable & Comparable {
    package func write(to image: inout ImageWriter) { image.write(sorted()) }
    package init(from image: inout ImageReader) throws(ImageError) {
        let elements = try [Element](from: &image)
        self.init(minimumCapacity: elements.count)
        for element in elements { insert(element) }
    }
}

/// Dictionaries are written sorted by key, so that one grammar always gives the same bytes.
extension Dictionary: ImageCodable where Key: ImageCodable & Comparable, Value: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(count)
        for key in keys.sorted() {
            key.write(to: &image)
            self[key]!.write(to: &image)
        }
    }
    package init(from image: inout ImageReader) throws(ImageError) {
        let count = try image.count(least: 2)
        self.init(minimumCapacity: count)
        for _ in 0..<count {
            let key = try Key(from: &image)
            guard updateValue(try Value(from: &image), forKey: key) == nil else { throw ImageError("a key is written twice") }
        }
    }
}
