import CParlanceICU

/// Unicode normalization through ICU. All functions are thread-safe.
public enum ICUNormalizer {
    /// NFKC with case folding: "Ｓtraße" → "strasse", "ﬁ" → "fi".
    public static func nfkcCasefold(_ text: String) throws(ICUError) -> String {
        try apply(text, "NFKC_Casefold", pl_nfkc_casefold)
    }

    /// Canonical composition (NFC).
    public static func nfc(_ text: String) throws(ICUError) -> String {
        try apply(text, "NFC", pl_nfc)
    }

    /// A matching key with case and diacritics folded: "Íñigo" → "inigo", "Straße" → "strasse".
    public static func foldKey(_ text: String) throws(ICUError) -> String {
        try apply(text, "fold diacritics", pl_fold_key)
    }

    private static func apply(
        _ text: String, _ name: String,
        _ function: (UnsafePointer<UInt16>?, Int32, UnsafeMutablePointer<UInt16>?, Int32, UnsafeMutablePointer<Int32>?) -> Int32
    ) throws(ICUError) -> String {
        if text.isEmpty { return text }
        let input = Array(text.utf16)
        let output = try utf16Output(capacity: input.count * 2 + 8, "normalize text (\(name))") { out, capacity, status in
            function(input, Int32(input.count), out, capacity, status)
        }
        return String(utf16: output)
    }
}

/// An ICU transform such as "Any-Latin; Latin-ASCII", safe to call from many tasks at once.
public final class Transliterator: Sendable {
    /// The transform's ICU id ("Any-Latin; Latin-ASCII"), or the name given to a rule-based transform.
    public let id: String
    private let pool: HandlePool

    /// Opens one of ICU's built-in transforms, or several separated by semicolons ("Any-Latin; Latin-ASCII").
    /// Throws `ICUError` when ICU does not know the id.
    public convenience init(id: String) throws(ICUError) {
        var status: Int32 = 0
        let units = Array(id.utf16)
        let handle = pl_translit_open(units, Int32(units.count), &status)
        try check(status, "open transliterator '\(id)'")
        self.init(id: id, handle: handle!)
    }

    /// A transform written in ICU's rule syntax ("ph > f; v > b; h > ;"). A rule error names
    /// the offset in `rules` where ICU found it.
    public convenience init(id: String, rules: String) throws(ICUError) {
        var status: Int32 = 0
        var line: Int32 = 0
        var offset: Int32 = 0
        let idUnits = Array(id.utf16)
        let ruleUnits = Array(rules.utf16)
        let handle = pl_translit_open_rules(idUnits, Int32(idUnits.count), ruleUnits, Int32(ruleUnits.count), &line, &offset, &status)
        if status > 0 {
            let lower = min(ruleUnits.count, max(0, Int(offset) - 20))
            let upper = min(ruleUnits.count, max(lower, Int(offset) + 20))
            let near = String(decoding: ruleUnits[lower..<upper], as: UTF16.self)
            try check(status, "compile transform rules '\(id)' (near offset \(offset): \"\(near)\")")
        }
        self.init(id: id, handle: handle!)
    }

    private init(id: String, handle: OpaquePointer) {
        self.id = id
        self.pool = HandlePool(
            prototype: handle,
            clone: { (prototype) throws(ICUError) -> OpaquePointer in
                var status: Int32 = 0
                let copy = pl_translit_clone(prototype, &status)
                try check(status, "clone a transliterator")
                return copy!
            },
            close: { pl_translit_close($0) })
    }

    /// Applies the transform to `text` and returns the result; empty text is returned as it is. Throws `ICUError` when
    /// ICU fails.
    public func transliterate(_ text: String) throws -> String {
        if text.isEmpty { return text }
        return try pool.withHandle { handle in
            let input = Array(text.utf16)
            let output = try utf16Output(capacity: input.count * 3 + 16, "transliterate with '\(id)'") { out, capacity, status in
                guard Int(capacity) >= input.count else {
                    status.pointee = PL_BUFFER_OVERFLOW
                    return Int32(input.count * 3 + 16)
                }
                out.update(from: input, count: input.count)
                return pl_translit_apply(handle, out, Int32(input.count), capacity, status)
            }
            return String(utf16: output)
        }
    }
}
