import Foundation

/// A look at property-list bytes before Foundation's reader sees them. On Linux, Foundation
/// crashes the process (a segmentation fault while bridging) on a binary property list that
/// holds a set, and Parlance's property lists (AppIntentVocabulary.plist, .intentdefinition,
/// .strings) never hold one. So every reader asks this first: a binary list's version (00
/// only), trailer and offset table are checked and every object's type read (one pass, no
/// allocation); another version, a set, an object type the format does not define, or an
/// offset outside the file is an error, not a crash. XML lists have no sets and pass as
/// they are.
public enum PropertyListGuard {
    /// The error `check` throws for a property list that must not reach Foundation.
    public struct Refused: LocalizedError, CustomStringConvertible, Sendable {
        /// What is wrong with the list: "a binary property list holding a set (object 3), which no Parlance file has".
        public let description: String
        /// The same text as `description`, for `LocalizedError`.
        public var errorDescription: String? { description }
    }

    /// Throws `Refused` for a binary property list Foundation should not be given.
    public static func check(_ data: Data) throws {
        let bytes = [UInt8](data.prefix(8))
        // Foundation reads any "bplist0?" as a binary list (a fuzzed "bplist07" holding a set
        // crashed it past a check that knew "bplist00" only); Parlance's files are version 00.
        guard bytes.starts(with: Array("bplist".utf8)) else { return }
        guard bytes == Array("bplist00".utf8) else {
            throw Refused(
                description:
                    "a binary property list of a version other than 00 (\(String(decoding: bytes, as: UTF8.self).debugDescription))")
        }
        guard data.count >= 8 + 32 else { throw Refused(description: "a binary property list too short for its trailer") }
        let base = data.startIndex
        func integer(at offset: Int, size: Int) -> Int? {
            guard size >= 1, size <= 8, offset >= 0, offset + size <= data.count else { return nil }
            var value: UInt64 = 0
            for i in 0..<size { value = value << 8 | UInt64(data[base + offset + i]) }
            return value > UInt64(Int.max) ? nil : Int(value)
        }
        let trailer = data.count - 32
        let offsetSize = Int(data[base + trailer + 6])
        let referenceSize = Int(data[base + trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let count = integer(at: trailer + 8, size: 8), let top = integer(at: trailer + 16, size: 8),
            let table = integer(at: trailer + 24, size: 8)
        else { throw Refused(description: "a binary property list with a damaged trailer") }
        guard count >= 1, top < count, table >= 8, table <= trailer, count <= (trailer - table) / offsetSize else {
            throw Refused(description: "a binary property list whose object table does not fit the file")
        }
        for n in 0..<count {
            guard let offset = integer(at: table + n * offsetSize, size: offsetSize), offset >= 8, offset < table else {
                throw Refused(description: "a binary property list with object \(n) outside the file")
            }
            switch data[base + offset] >> 4 {
            case 0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x8, 0xA, 0xD: continue
            case 0xC: throw Refused(description: "a binary property list holding a set (object \(n)), which no Parlance file has")
            default: throw Refused(description: "a binary property list with an unknown object type at object \(n)")
            }
        }
    }
}

extension PropertyListGuard {
    /// Foundation's reason a property list could not be read, in words ("Encountered
    /// unexpected EOF") rather than its generic "The data is not in the correct format".
    public static func describe(_ error: Error) -> String {
        let ns = error as NSError
        if let detail = ns.userInfo[NSDebugDescriptionErrorKey] as? String, !detail.isEmpty { return detail }
        return FileErrorText.describe(error)
    }

    /// `data`, after `check`.
    public static func checked(_ data: Data) throws -> Data {
        try check(data)
        return data
    }
}
