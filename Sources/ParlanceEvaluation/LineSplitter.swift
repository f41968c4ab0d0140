import Foundation

/// JSON Lines read in chunks, cut into lines: every line a newline ends, without the "\r" of a
/// "\r\n", and at the end the last line when no newline ends it. A line is held up to one byte
/// past `BatchLineProcessor.maxLineBytes`, enough for its record to say it is too long: an
/// oversized line is skipped to its end, never held whole. What `parlance batch` and
/// `parlance serve`'s batches both read lines with.
public struct LineSplitter: Sendable {
    private var carry: [UInt8] = []
    private let held = BatchLineProcessor.maxLineBytes + 1

    /// A splitter with nothing held.
    public init() {}

    /// Gives `line` each line this chunk ends, in order; keeps the rest for the next chunk.
    public mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ line: ([UInt8]) throws -> Void) rethrows {
        var start = bytes.startIndex
        var i = start
        while i != bytes.endIndex {
            if bytes[i] == 0x0A {
                hold(bytes[start..<i])
                var whole = carry
                carry.removeAll(keepingCapacity: true)
                if whole.last == 0x0D { whole.removeLast() }
                try line(whole)
                start = bytes.index(after: i)
            }
            i = bytes.index(after: i)
        }
        hold(bytes[start...])
    }

    /// The last line, when the input did not end with a newline; nil when it did.
    public mutating func finish() -> [UInt8]? {
        guard !carry.isEmpty else { return nil }
        defer { carry.removeAll() }
        return carry.last == 0x0D ? Array(carry.dropLast()) : carry
    }

    private mutating func hold<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        carry.append(contentsOf: bytes.prefix(max(0, held - carry.count)))
    }
}
