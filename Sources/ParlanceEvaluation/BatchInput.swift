import CZlib
import Foundation
import ParlanceContext

/// Where batch bytes come from.
public protocol ByteSource {
    /// Up to `count` bytes; empty at the end.
    mutating func read(upTo count: Int) throws -> [UInt8]
    /// Bytes of the input consumed so far, and the total when known (for an ETA).
    var position: (consumed: Int, total: Int?) { get }
}

extension FileHandle: ByteSource {
    /// Reads up to `count` bytes from the file handle; an empty array at the end of the file.
    public func read(upTo count: Int) throws -> [UInt8] { [UInt8](try read(upToCount: count) ?? Data()) }
    /// Always `(0, nil)`: a file handle does not tell how far it has got, so no ETA can be given.
    public var position: (consumed: Int, total: Int?) { (0, nil) }
}

/// A batch input file or standard input, plain or gzip-compressed (told by its first bytes,
/// not its name), read through zlib in large blocks.
public final class BatchInput: ByteSource {
    private let file: gzFile
    private let total: Int?
    /// The input's name in messages: the path, or "standard input".
    public let name: String

    /// `path` nil or "-" reads standard input.
    public init(path: String?) throws(BatchInputError) {
        if let path, path != "-" {
            guard FileManager.default.isReadableFile(atPath: path),
                let handle = gzopen(path, "rb")
            else { throw BatchInputError(message: "cannot read '\(path)'") }
            file = handle
            total = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            name = path
        } else {
            guard let handle = gzdopen(dup(STDIN_FILENO), "rb") else { throw BatchInputError(message: "cannot read standard input") }
            file = handle
            total = nil
            name = "standard input"
        }
        gzbuffer(file, 1 << 18)
    }

    deinit { gzclose(file) }

    /// Reads up to `count` decompressed bytes; an empty array at the end of the input.
    ///
    /// On a truncated or corrupt .gz file, the bytes decoded before the damage are returned first and
    /// the next call throws a `BatchInputError` whose `truncated` is true.
    public func read(upTo count: Int) throws -> [UInt8] {
        if let pending {
            self.pending = nil
            throw pending
        }
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
        var code: Int32 = 0
        var message = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
        // zlib's message starts with the path it was opened with: the file is named once.
        if message.hasPrefix("\(name): ") { message.removeFirst(name.count + 2) }
        // A short read at the end of a truncated stream sets Z_BUF_ERROR without failing.
        if n < 0 || (code != Z_OK && code != Z_STREAM_END) {
            let error = BatchInputError(message: "\(name): \(message) (a truncated or corrupt .gz file?)", truncated: true)
            // What was read before the damage is handed out first; the error comes next.
            guard n > 0 else { throw error }
            pending = error
        }
        buffer.removeLast(count - Int(max(n, 0)))
        return buffer
    }

    /// An error met after some bytes were read, thrown by the next read.
    private var pending: BatchInputError?

    /// Bytes of the file consumed so far (compressed bytes for a .gz file) and the file's size in bytes;
    /// the size is nil for standard input.
    public var position: (consumed: Int, total: Int?) { (Int(gzoffset(file)), total) }
}

/// Why batch input cannot be read: a file that cannot be opened, or damaged compressed data.
public struct BatchInputError: Error, Sendable, CustomStringConvertible {
    /// The message to show, naming the file or standard input.
    public let message: String
    /// The input ended in damage: the lines read before it were complete and were processed;
    /// a last line without its end was not.
    public var truncated = false
    /// The message.
    public var description: String { message }

    /// Creates an error with `message`; `truncated` tells whether the input ended in damage after
    /// complete lines.
    public init(message: String, truncated: Bool = false) {
        self.message = message
        self.truncated = truncated
    }
}
