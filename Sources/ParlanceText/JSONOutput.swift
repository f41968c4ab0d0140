import Foundation

/// How Parlance writes JSON: one object per line, keys sorted (stable output that golden
/// files and diff tools can compare), slashes not escaped, non-ASCII as UTF-8.
public enum ParlanceJSON {
    /// A JSON encoder with Parlance's settings: keys sorted, slashes not escaped; with `pretty`, indented over several
    /// lines rather than on one.
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A value as one line of JSON (no trailing newline).
    public static func line<T: Encodable>(_ value: T, pretty: Bool = false) throws -> String {
        String(decoding: try encoder(pretty: pretty).encode(value), as: UTF8.self)
    }
}

/// Writes JSON by hand, byte for byte as `ParlanceJSON.encoder()` writes it (keys sorted,
/// slashes not escaped, a number as its shortest description without a trailing ".0",
/// control characters as `\n`, `\t`… or `\u00xx`): for records written a million times,
/// where `JSONEncoder`'s tree of boxed values costs more than the parse. The caller writes
/// an object's keys in sorted order.
public struct JSONLineWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    /// No value written yet in the innermost object or array (no comma before the next).
    private var first = true

    /// An empty writer.
    public init() { bytes.reserveCapacity(1024) }

    /// Opens an object (`{`).
    public mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    /// Closes an object (`}`).
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    /// Opens an array (`[`).
    public mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        first = true
    }

    /// Closes an array (`]`).
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        first = false
    }

    /// An object's key (keys must come in sorted order), after a comma when needed.
    public mutating func key(_ name: StaticString) {
        comma()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Before an array's element: a comma when it is not the first.
    public mutating func element() { comma() }

    /// An array of `elements`, each written by `write`.
    @inlinable public mutating func array<C: Collection>(_ elements: C, _ write: (inout JSONLineWriter, C.Element) throws -> Void) rethrows
    {
        beginArray()
        for element in elements {
            self.element()
            try write(&self, element)
        }
        endArray()
    }

    private mutating func comma() {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
    }

    /// `null`.
    public mutating func null() { append("null") }

    /// `true` or `false`.
    public mutating func bool(_ value: Bool) { append(value ? "true" : "false") }

    /// An integer, in decimal digits.
    public mutating func number(_ value: Int) { append(String(value)) }

    /// As `JSONEncoder` writes a `Double`: its description, without a trailing ".0".
    public mutating func number(_ value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(text)
    }

    /// As `JSONEncoder` writes a `Decimal`: its description.
    public mutating func number(_ value: Decimal) { append(value.description) }

    /// A string in quotes, escaped as `JSONEncoder` escapes it; nil is `null`.
    public mutating func string(_ value: String?) {
        guard let value else { return null() }
        bytes.append(UInt8(ascii: "\""))
        // Nothing to escape (nearly always): the string's bytes in one copy.
        let copied =
            value.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
                guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
                bytes.append(contentsOf: utf8)
                return true
            } ?? false
        if copied {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x08: append("\\b")
            case 0x09: append("\\t")
            case 0x0A: append("\\n")
            case 0x0C: append("\\f")
            case 0x0D: append("\\r")
            case 0x00..<0x20:
                append("\\u00")
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// Any other value, through `ParlanceJSON.encoder()` (for the rare shapes written by hand
    /// nowhere else).
    public mutating func encoded<T: Encodable>(_ value: T) throws {
        bytes.append(contentsOf: try ParlanceJSON.encoder().encode(value))
    }

    private mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
}
