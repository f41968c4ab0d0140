import CParlanceICU

/// One segment found by ICU word breaking, in UTF-16 offsets.
public struct WordSegment: Sendable, Equatable {
    /// What ICU's word rules say the segment is.
    public enum Category: Sendable, Equatable {
        /// Spaces, punctuation, symbols, emoji (rule status 0–99).
        case none
        /// A number ("42", "3,5"); ICU rule status 100–199.
        case number
        /// A word of letters other than kana or ideographs (rule status 200–299).
        case letter
        /// Hiragana or katakana (rule status 300–399).
        case kana
        /// Ideographs: Chinese hanzi, Japanese kanji (rule status 400–499).
        case ideographic
    }

    /// Offset of the segment's first UTF-16 unit in the text.
    public let start: Int
    /// Offset just past the segment's last UTF-16 unit (exclusive).
    public let end: Int
    /// What kind of text the segment is.
    public let category: Category

    /// Creates a segment covering the UTF-16 units `start..<end`.
    public init(start: Int, end: Int, category: Category) {
        self.start = start
        self.end = end
        self.category = category
    }
}

/// ICU word breaking for one locale, safe to call from many tasks at once: each call
/// borrows its own clone of the locale's iterator.
public final class WordBreaker: Sendable {
    /// The ICU locale id whose word rules and dictionaries the breaker uses.
    public let locale: String
    private let pool: HandlePool

    /// Opens a word break iterator for an ICU locale id ("ja", "th", "es_ES"). Throws `ICUError` when ICU cannot open
    /// one.
    public init(locale: String) throws(ICUError) {
        var status: Int32 = 0
        let handle = locale.withCString { pl_breaker_open($0, &status) }
        try check(status, "open a word break iterator for '\(locale)'")
        guard let handle else { throw ICUError(code: 1, operation: "open a word break iterator") }
        self.locale = locale
        self.pool = HandlePool(
            prototype: handle,
            clone: { (prototype) throws(ICUError) -> OpaquePointer in
                var status: Int32 = 0
                let copy = pl_breaker_clone(prototype, &status)
                try check(status, "clone a word break iterator")
                return copy!
            },
            close: { pl_breaker_close($0) })
    }

    /// The word segments of UTF-16 text, covering it from start to end.
    public func segments(_ text: [UInt16]) throws -> [WordSegment] {
        if text.isEmpty { return [] }
        return try pool.withHandle { handle in
            let capacity = text.count
            var bounds = [Int32](repeating: 0, count: 2 * capacity)
            var rules = [Int32](repeating: 0, count: capacity)
            var status: Int32 = 0
            let count = pl_breaker_segment(handle, text, Int32(text.count), &bounds, &rules, Int32(capacity), &status)
            try check(status, "segment text into words")
            return (0..<Int(count)).map { i in
                let rule = rules[i]
                let category: WordSegment.Category =
                    switch rule {
                    case 100..<200: .number
                    case 200..<300: .letter
                    case 300..<400: .kana
                    case 400..<500: .ideographic
                    default: .none
                    }
                return WordSegment(start: Int(bounds[2 * i]), end: Int(bounds[2 * i + 1]), category: category)
            }
        }
    }
}
