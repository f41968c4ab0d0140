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
