import CParlanceICU

/// ICU MessageFormat with named arguments: plurals and selects in the locale's rules, numbers
/// and currencies in its formats ("{quantity, plural, one {# soup} other {# soups}}").
public enum MessageFormat {
    /// An argument value.
    public enum Argument: Sendable, Hashable {
        /// Text, for `select` arguments and plain substitution ("{name}").
        case string(String)
        /// A number, for `plural` arguments and number formatting ("{quantity, number}").
        case number(Double)
    }

    /// A pattern that ICU refuses, with where.
    public struct PatternError: Error, Sendable, CustomStringConvertible {
        /// The pattern as given.
        public let pattern: String
        /// Where ICU found the error, in UTF-16 units from the start of `pattern`; −1 when ICU did not say.
        public let offset: Int
        /// The underlying ICU failure; `icu.name` is ICU's name for it, e.g. "U_PATTERN_SYNTAX_ERROR".
        public let icu: ICUError
        /// "bad message pattern at offset <offset> of "<pattern>": <ICU error name>".
        public var description: String {
            "bad message pattern at offset \(offset) of \"\(pattern)\": \(icu.name)"
        }
    }

    /// Throws `PatternError` when ICU cannot read `pattern` (an unclosed brace, a plural
    /// without `other`, an unknown argument type); formats nothing. Context files check their
    /// response templates with it when they load.
    public static func check(_ pattern: String, locale: String) throws(PatternError) {
        let units = Array(pattern.utf16)
        var offset: Int32 = -1
        let status = pl_message_check(units, Int32(units.count), locale, &offset)
        if status > 0 {
            throw PatternError(pattern: pattern, offset: Int(offset), icu: ICUError(code: status, operation: "read a message pattern"))
        }
    }

    /// Formats `pattern` in `locale` ("es_ES") with the named arguments.
    public static func format(_ pattern: String, locale: String, arguments: [String: Argument]) throws -> String {
        let names = arguments.keys.sorted()
        let patternUnits = Array(pattern.utf16)
        let nameUnits = names.map { Array($0.utf16) }
        let stringUnits = names.map { name -> [UInt16] in
            if case .string(let s) = arguments[name]! { return Array(s.utf16) }
            return []
        }
        let kinds = names.map { name -> Int32 in
            if case .number = arguments[name]! { return PL_MESSAGE_NUMBER }
            return PL_MESSAGE_STRING
        }
        let numbers = names.map { name -> Double in
            if case .number(let n) = arguments[name]! { return n }
            return 0
        }
        var errorOffset: Int32 = -1
        var failure: ICUError?
        var capacity = max(64, pattern.utf16.count * 2)
        for _ in 0..<2 {
            var status: Int32 = 0
            var out = [UInt16](repeating: 0, count: capacity)
            let length = withPointers(nameUnits) { namePointers in
                withPointers(stringUnits) { stringPointers in
                    pl_message_format(
                        patternUnits, Int32(patternUnits.count), locale, namePointers, nameUnits.map { Int32($0.count) },
                        kinds, numbers, stringPointers, stringUnits.map { Int32($0.count) }, Int32(names.count),
                        &out, Int32(capacity), &errorOffset, &status)
                }
            }
            if status == PL_BUFFER_OVERFLOW {
                capacity = Int(length) + 1
                continue
            }
            if status > 0 {
                failure = ICUError(code: status, operation: "format a message")
                break
            }
            return String(utf16: Array(out[0..<Int(length)]))
        }
        throw PatternError(
            pattern: pattern, offset: Int(errorOffset), icu: failure ?? ICUError(code: PL_BUFFER_OVERFLOW, operation: "format a message"))
    }

    /// Stable pointers to each array's storage for the duration of `body`.
    private static func withPointers<R>(_ arrays: [[UInt16]], _ body: ([UnsafePointer<UInt16>?]) -> R) -> R {
        var pointers: [UnsafePointer<UInt16>?] = []
        var buffers: [UnsafeMutableBufferPointer<UInt16>] = []
        for array in arrays {
            let buffer = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: max(1, array.count))
            _ = buffer.initialize(from: array)
            buffers.append(buffer)
            pointers.append(UnsafePointer(buffer.baseAddress))
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        return body(pointers)
    }
}
