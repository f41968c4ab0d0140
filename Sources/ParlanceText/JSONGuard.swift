import Foundation

/// A bounded look at JSON bytes before Foundation's decoder sees them: Foundation's scanner
/// recurses once per nesting level and traps past its limit (513 "[" end the process, not
/// the call), so every reader of JSON that is not ours (batch and resolve lines, corpora,
/// donation journals, context files) asks this first. One pass, no allocation; brackets
/// inside strings do not count.
public enum JSONGuard {
    /// Deeper than any record Parlance reads, far below where Foundation's decoder traps.
    public static let maximumDepth = 128

    /// The error `check` throws: arrays and objects nest deeper than `maximumDepth`.
    public struct TooDeep: Error, CustomStringConvertible, Sendable {
        /// The depth at which reading stopped: `maximumDepth` + 1.
        public let depth: Int
        /// "JSON nested deeper than 128 levels".
        public var description: String { "JSON nested deeper than \(JSONGuard.maximumDepth) levels" }
    }

    /// Throws `TooDeep` when arrays and objects nest deeper than `maximumDepth`.
    public static func check<Bytes: Sequence>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x5B, 0x7B:
                depth += 1
                if depth > maximumDepth { throw TooDeep(depth: depth) }
            case 0x5D, 0x7D: depth -= 1
            default: break
            }
        }
    }

    /// `JSONDecoder().decode`, after `check`.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try check(data)
        return try decoder.decode(type, from: data)
    }
}
