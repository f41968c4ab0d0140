import CZlib
import Foundation

/// Where batch bytes come from.
public protocol ByteSource {
    /// Up to `count` bytes; empty at the end.
    mutating func read(upTo count: Int) throws -> [UInt8]
    /// Bytes of the input consumed so far, and the total when known (for an ETA).
    var position: (consumed: Int, total: Int?) { get }
}

extension FileHandle: ByteSource {
    public func read(upTo count: Int) throws -> [UInt8] { [UInt8](try read(upToCount: count) ?? Data()) }
    public var position: (consumed: Int, total: Int?) { (0, nil) }
}

/// A batch input file or standard input, plain or gzip-compressed (told by its first bytes,
/// not its name), read through zlib in large blocks.
public final class BatchInput: ByteSource {
    private let file: gzFile
    private let total: Int?
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

    public func read(upTo count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
        var code: Int32 = 0
        let message = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
        // A short read at the end of a truncated stream sets Z_BUF_ERROR without failing.
        if n < 0 || (code != Z_OK && code != Z_STREAM_END) {
            throw BatchInputError(message: "\(name): \(message) (a truncated or corrupt .gz file?)")
        }
        buffer.removeLast(count - Int(n))
        return buffer
    }

    public var position: (consumed: Int, total: Int?) { (Int(gzoffset(file)), total) }
}

public struct BatchInputError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
