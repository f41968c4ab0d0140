import CParlanceICU

/// ICU number formats: locale-aware decimal parsing and rule-based spell-out.
/// Thread-safe: every call borrows its own clone.
public final class NumberFormat: Sendable {
    /// `decimal` reads and writes digits with the locale's separators ("1.234,56" in "de"); `spellOut` writes numbers in
    /// words with CLDR's rule-based spell-out ("doscientos treinta y cuatro" in "es").
    public enum Style: Sendable { case decimal, spellOut }

    /// The ICU locale id the format was opened for ("es_ES").
    public let locale: String
    /// Whether the format reads digits or spells numbers out.
    public let style: Style
    /// Whether parsing is lenient (ICU's `UNUM_LENIENT_PARSE`): it then accepts text that does not follow the locale's
    /// format exactly, such as misplaced grouping separators.
    public let lenient: Bool
    private let pool: HandlePool

    /// Opens a number format for an ICU locale id ("es", "fr_CA"). Throws `ICUError` when ICU cannot open one for the
    /// locale.
    public init(locale: String, style: Style, lenient: Bool = false) throws(ICUError) {
        var status: Int32 = 0
        let raw = style == .spellOut ? Int32(PL_NUMBER_SPELLOUT) : Int32(PL_NUMBER_DECIMAL)
        let handle = locale.withCString { pl_numfmt_open(raw, $0, lenient ? 1 : 0, &status) }
        try check(status, "open a \(style) number format for '\(locale)'")
        self.locale = locale
        self.style = style
        self.lenient = lenient
        self.pool = HandlePool(
            prototype: handle!,
            clone: { (prototype) throws(ICUError) -> OpaquePointer in
                var status: Int32 = 0
                let copy = pl_numfmt_clone(prototype, &status)
                try check(status, "clone a number format")
                return copy!
            },
            close: { pl_numfmt_close($0) })
    }

    /// Parses a number at the start of `text`. Returns the decimal value as a string
    /// ("1234.56") and how many UTF-16 units were read, or nil when nothing parses.
    public func parsePrefix(_ text: String) -> (decimal: String, consumed: Int)? {
        let units = Array(text.utf16)
        if units.isEmpty { return nil }
        return try? pool.withHandle { handle -> (String, Int)? in
            var position: Int32 = 0
            var status: Int32 = 0
            var out = [CChar](repeating: 0, count: 128)
            let n = pl_numfmt_parse_decimal(handle, units, Int32(units.count), &position, &out, 127, &status)
            guard status <= 0, n > 0, position > 0 else { return nil }
            let decimal = String(decoding: out[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return (decimal, Int(position))
        }
    }

    /// Parses the whole of `text` as one number; nil unless every unit is read.
    public func parseWhole(_ text: String) -> String? {
        guard let (decimal, consumed) = parsePrefix(text), consumed == text.utf16.count else { return nil }
        return decimal
    }

    /// Formats an integer, with a spell-out rule set when given ("%spellout-cardinal-feminine").
    public func format(_ value: Int64, ruleSet: String? = nil) throws -> String {
        try pool.withHandle { handle in
            var status: Int32 = 0
            if let ruleSet {
                let name = Array(ruleSet.utf16)
                pl_numfmt_set_rule_set(handle, name, Int32(name.count), &status)
                try check(status, "select rule set '\(ruleSet)'")
            }
            let out = try utf16Output(capacity: 64, "format \(value)") { out, capacity, status in
                pl_numfmt_format_int64(handle, value, out, capacity, status)
            }
            return String(utf16: out)
        }
    }

    /// The public rule sets of a spell-out format ("%spellout-numbering", "%spellout-cardinal", …).
    public func ruleSets() throws -> [String] {
        try pool.withHandle { handle in
            let out = try utf16Output(capacity: 512, "list rule sets") { out, capacity, status in
                pl_numfmt_rule_sets(handle, out, capacity, status)
            }
            return String(utf16: out).split(separator: ";").map(String.init)
        }
    }

    /// A number symbol that `symbol(_:)` reads: the decimal separator, the grouping (thousands) separator, or the minus
    /// sign.
    public enum Symbol: Sendable { case decimalSeparator, groupingSeparator, minusSign }

    /// A number symbol of the locale: "," for the decimal separator in es, "\u{202F}" for grouping in fr.
    public func symbol(_ symbol: Symbol) throws -> String {
        try pool.withHandle { handle in
            let which: Int32 =
                switch symbol {
                case .decimalSeparator: Int32(PL_SYMBOL_DECIMAL)
                case .groupingSeparator: Int32(PL_SYMBOL_GROUPING)
                case .minusSign: Int32(PL_SYMBOL_MINUS)
                }
            let out = try utf16Output(capacity: 8, "read a number symbol") { out, capacity, status in
                pl_numfmt_symbol(handle, which, out, capacity, status)
            }
            return String(utf16: out)
        }
    }
}

/// CLDR plural rules.
public enum PluralRules {
    /// The plural categories of a locale, e.g. ["one", "other"] or ["one", "many", "other"].
    public static func keywords(locale: String) throws(ICUError) -> [String] {
        let joined = try byteOutput(capacity: 64, "read plural keywords for '\(locale)'") { out, capacity, status in
            locale.withCString { pl_plural_keywords($0, out, capacity, status) }
        }
        return joined.split(separator: ";").map(String.init)
    }

    /// The plural category of a number in a locale ("one", "other", …).
    public static func select(_ number: Double, locale: String) throws(ICUError) -> String {
        try byteOutput(capacity: 16, "select a plural category") { out, capacity, status in
            locale.withCString { pl_plural_select($0, number, out, capacity, status) }
        }
    }
}
