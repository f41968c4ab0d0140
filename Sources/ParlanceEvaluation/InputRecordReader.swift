import ParlanceText

/// Reads the common batch line, `{"id": "…", "text": "…", "locale": "…", …}`, in one pass
/// over its bytes, without Foundation's decoder (which costs more than a short utterance's
/// parse). It answers only for lines it has read whole as valid JSON, within a plain subset;
/// for anything else (a number as id, a field of another type, a key given twice, a
/// surrogate escape, anything malformed) it answers nil and the line goes through
/// `JSONDecoder` as before, which decides its record or its error. So a record it gives is
/// the one the decoder would give.
enum InputRecordReader {
    /// The record of a line of valid UTF-8, or nil to leave it to the decoder.
    static func read(_ line: [UInt8]) -> InputRecord? {
        line.withUnsafeBufferPointer { bytes in
            var reader = Cursor(bytes: bytes)
            return reader.record()
        }
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func record() -> InputRecord? {
            var id: String??
            var text: String??
            var locale: String??
            var referenceTime: String??
            space()
            guard take(0x7B) else { return nil }
            depth = 1
            space()
            if !take(0x7D) {
                repeat {
                    space()
                    guard let key = string() else { return nil }
                    space()
                    guard take(0x3A) else { return nil }
                    space()
                    switch key {
                    case "id", "text", "locale", "reference_time":
                        // A string or null; anything else is the decoder's to judge.
                        let value: String?
                        if peek == 0x22 {
                            guard let s = string() else { return nil }
                            value = s
                        } else if literal("null") {
                            value = nil
                        } else {
                            return nil
                        }
                        switch key {
                        case "id":
                            guard id == nil else { return nil }
                            id = .some(value)
                        case "text":
                            guard text == nil else { return nil }
                            text = .some(value)
                        case "locale":
                            guard locale == nil else { return nil }
                            locale = .some(value)
                        default:
                            guard referenceTime == nil else { return nil }
                            referenceTime = .some(value)
                        }
                    default:
                        guard skipValue() else { return nil }
                    }
                    space()
                } while take(0x2C)
                guard take(0x7D) else { return nil }
            }
            space()
            guard i == bytes.count else { return nil }
            return InputRecord(
                id: id ?? nil, text: text ?? nil, locale: locale ?? nil, referenceTime: referenceTime ?? nil, badField: nil)
        }

        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }

        /// JSON's white space: space, tab, line feed, carriage return.
        mutating func space() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard i + count <= bytes.count else { return false }
            for k in 0..<count where bytes[i + k] != word.utf8Start[k] { return false }
            // A literal ends where a value ends ("nullx" is not JSON).
            if i + count < bytes.count, Self.isLetterOrDigit(bytes[i + count]) { return false }
            i += count
            return true
        }

        static func isLetterOrDigit(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) }

        /// A string: its value, with the escapes JSON has but a surrogate's (left to the decoder).
        mutating func string() -> String? {
            guard take(0x22) else { return nil }
            let start = i
            var plain = true
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x22 { break }
                if b < 0x20 { return nil }
                if b == 0x5C {
                    plain = false
                    i += 2
                } else {
                    i += 1
                }
            }
            guard i < bytes.count else { return nil }
            let end = i
            i += 1
            if plain { return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(end - start)
            var k = start
            while k < end {
                let b = bytes[k]
                guard b == 0x5C else {
                    out.append(b)
                    k += 1
                    continue
                }
                guard k + 1 < end else { return nil }
                switch bytes[k + 1] {
                case 0x22, 0x5C, 0x2F: out.append(bytes[k + 1])
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    guard k + 6 <= end else { return nil }
                    var value: UInt32 = 0
                    for d in bytes[(k + 2)..<(k + 6)] {
                        guard let digit = Self.hexDigit(d) else { return nil }
                        value = value << 4 | digit
                    }
                    // Surrogates (pairs or lone halves) are the decoder's.
                    guard let scalar = Unicode.Scalar(value) else { return nil }
                    out.append(contentsOf: UTF8.encode(scalar)!)
                    k += 4
                default: return nil
                }
                k += 2
            }
            return String(decoding: out, as: UTF8.self)
        }

        static func hexDigit(_ b: UInt8) -> UInt32? {
            switch b {
            case 0x30...0x39: UInt32(b - 0x30)
            case 0x41...0x46: UInt32(b - 0x41 + 10)
            case 0x61...0x66: UInt32(b - 0x61 + 10)
            default: nil
            }
        }

        /// Steps over any JSON value, checking it; false when it is not one.
        /// Steps over a string as `string()` reads it (true where it gives one), making no
        /// string of it unless it has escapes.
        mutating func skipString() -> Bool {
            let opening = i
            guard take(0x22) else { return false }
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x22 {
                    i += 1
                    return true
                }
                if b < 0x20 { return false }
                // Escapes are checked as `string()` checks them.
                if b == 0x5C {
                    i = opening
                    return string() != nil
                }
                i += 1
            }
            return false
        }

        mutating func skipValue() -> Bool {
            guard let b = peek else { return false }
            switch b {
            case 0x22: return skipString()
            case 0x7B, 0x5B:
                depth += 1
                guard depth <= JSONGuard.maximumDepth else { return false }
                defer { depth -= 1 }
                let close: UInt8 = b == 0x7B ? 0x7D : 0x5D
                i += 1
                space()
                if take(close) { return true }
                repeat {
                    space()
                    if b == 0x7B {
                        guard skipString() else { return false }
                        space()
                        guard take(0x3A) else { return false }
                        space()
                    }
                    guard skipValue() else { return false }
                    space()
                } while take(0x2C)
                return take(close)
            case 0x74: return literal("true")
            case 0x66: return literal("false")
            case 0x6E: return literal("null")
            default: return number()
            }
        }

        /// A number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
        mutating func number() -> Bool {
            _ = take(0x2D)
            func digits() -> Int {
                let start = i
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
                return i - start
            }
            if take(0x30) {
                if let next = peek, next >= 0x30, next <= 0x39 { return false }
            } else if digits() == 0 {
                return false
            }
            if take(0x2E), digits() == 0 { return false }
            if take(0x65) || take(0x45) {
                if !take(0x2B) { _ = take(0x2D) }
                if digits() == 0 { return false }
            }
            // A number ends where a value ends.
            if let next = peek, Self.isLetterOrDigit(next) || next == 0x2E { return false }
            return true
        }
    }
}
