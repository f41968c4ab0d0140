import CParlanceICU

/// CLDR currency data through ICU.
public enum CLDRCurrencies {
    /// Which name of a currency `name(_:locale:style:)` returns: `symbol`, the locale's currency symbol ("US$", "€");
    /// `narrowSymbol`, the shortest symbol, without a country mark ("$"); `longName`, the display name ("US dollar").
    public enum NameStyle: Sendable { case symbol, narrowSymbol, longName }

    /// ISO 4217 codes of the current, common currencies.
    public static func codes() throws(ICUError) -> [String] {
        try byteOutput(capacity: 2048, "list currencies") { out, capacity, status in
            pl_currency_codes(out, capacity, status)
        }.split(separator: ";").map(String.init)
    }

    /// A currency's name in a locale: "€", "euro", "dólar estadounidense".
    public static func name(_ code: String, locale: String, style: NameStyle) throws(ICUError) -> String {
        let raw: Int32 =
            switch style {
            case .symbol: Int32(PL_CURRENCY_SYMBOL)
            case .narrowSymbol: Int32(PL_CURRENCY_NARROW_SYMBOL)
            case .longName: Int32(PL_CURRENCY_LONG_NAME)
            }
        let out = try utf16Output(capacity: 64, "name currency \(code) in '\(locale)'") { out, capacity, status in
            code.withCString { c in locale.withCString { l in pl_currency_name(c, l, raw, out, capacity, status) } }
        }
        return String(utf16: out)
    }

    /// A currency's plural name for a plural category: ("CHF", "fr", "other") → "francs suisses".
    public static func pluralName(_ code: String, locale: String, category: String) throws(ICUError) -> String {
        let out = try utf16Output(capacity: 64, "name currency \(code) in '\(locale)'") { out, capacity, status in
            code.withCString { c in
                locale.withCString { l in category.withCString { k in pl_currency_plural_name(c, l, k, out, capacity, status) } }
            }
        }
        return String(utf16: out)
    }

    /// The currency of the locale's region ("es_MX" → "MXN"); nil for a locale without region.
    public static func currency(forLocale locale: String) -> String? {
        if let known = currencies.withLock({ $0[locale] }) { return known }
        let found = lookUpCurrency(forLocale: locale)
        currencies.withLock { known in
            // A bound on what callers' locale strings can make it hold.
            if known.count >= 1_000 { known.removeAll() }
            known[locale] = found
        }
        return found
    }

    /// Each locale's currency once looked up (nil: none), as ICU gave it.
    private static let currencies = Locked<[String: String?]>([:])

    private static func lookUpCurrency(forLocale locale: String) -> String? {
        var status: Int32 = 0
        var out = [CChar](repeating: 0, count: 4)
        let n = locale.withCString { pl_currency_for_locale($0, &out, &status) }
        guard status <= 0, n == 3 else { return nil }
        return String(decoding: out[0..<3].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// CLDR calendar data: month and weekday names, the short date pattern, relative dates.
public enum CLDRDates {
    /// Which list of calendar names `symbols(_:locale:)` reads.
    public enum SymbolKind: Sendable, CaseIterable {
        /// Month names, January to December: in the form used inside a date (`months`, abbreviated `shortMonths`) or
        /// standing alone, as in a calendar heading (`standaloneMonths`, `standaloneShortMonths`). Some languages inflect
        /// the two forms differently.
        case months, shortMonths, standaloneMonths, standaloneShortMonths
        /// Weekday names, Sunday to Saturday, in the same four forms: inside a date or standing alone, full or abbreviated.
        case weekdays, shortWeekdays, standaloneWeekdays, standaloneShortWeekdays

        var raw: Int32 {
            switch self {
            case .months: Int32(PL_DATE_MONTHS)
            case .shortMonths: Int32(PL_DATE_SHORT_MONTHS)
            case .standaloneMonths: Int32(PL_DATE_STANDALONE_MONTHS)
            case .standaloneShortMonths: Int32(PL_DATE_STANDALONE_SHORT_MONTHS)
            case .weekdays: Int32(PL_DATE_WEEKDAYS)
            case .shortWeekdays: Int32(PL_DATE_SHORT_WEEKDAYS)
            case .standaloneWeekdays: Int32(PL_DATE_STANDALONE_WEEKDAYS)
            case .standaloneShortWeekdays: Int32(PL_DATE_STANDALONE_SHORT_WEEKDAYS)
            }
        }
    }

    /// The names of a kind, in calendar order: months January…December (12 entries),
    /// weekdays Sunday…Saturday (7 entries; ICU's leading empty entry is dropped).
    public static func symbols(_ kind: SymbolKind, locale: String) throws(ICUError) -> [String] {
        var status: Int32 = 0
        let count = locale.withCString { pl_date_symbol_count($0, kind.raw, &status) }
        try check(status, "count date symbols for '\(locale)'")
        var names: [String] = []
        for index in 0..<count {
            let out = try utf16Output(capacity: 32, "read date symbols for '\(locale)'") { out, capacity, status in
                locale.withCString { pl_date_symbol($0, kind.raw, index, out, capacity, status) }
            }
            names.append(String(utf16: out))
        }
        switch kind {
        case .weekdays, .shortWeekdays, .standaloneWeekdays, .standaloneShortWeekdays:
            return names.count == 8 ? Array(names.dropFirst()) : names
        default:
            return Array(names.prefix(12))
        }
    }

    /// The locale's short date pattern, e.g. "d/M/yy" or "M/d/yy".
    public static func shortDatePattern(locale: String) throws(ICUError) -> String {
        String(
            utf16: try utf16Output(capacity: 32, "read the date pattern for '\(locale)'") { out, capacity, status in
                locale.withCString { pl_date_short_pattern($0, out, capacity, status) }
            })
    }

    /// The unit of a relative date phrase (`relative(_:_:locale:)`). The raw values are ICU's `URelativeDateTimeUnit`
    /// numbers.
    public enum RelativeUnit: Int32, Sendable, CaseIterable {
        /// Years: −1 "last year", 0 "this year", 1 "next year".
        case year = 0
        /// Quarters, months, weeks, days, hours, minutes and seconds. Offsets −1, 0 and 1 give the locale's named phrases
        /// where it has them ("yesterday", "today", "tomorrow"); other offsets give a count ("in 3 days", "3 days ago").
        case quarter, month, week, day, hour, minute, second
        /// Weekdays: −1 "last Monday", 0 "this Monday", 1 "next Monday".
        case sunday, monday, tuesday, wednesday, thursday, friday, saturday
    }

    /// A relative date phrase: (-1, .day) → "yesterday", (-1, .monday) → "last Monday".
    public static func relative(_ offset: Double, _ unit: RelativeUnit, locale: String) throws(ICUError) -> String {
        String(
            utf16: try utf16Output(capacity: 64, "format a relative date in '\(locale)'") { out, capacity, status in
                locale.withCString { pl_relative_date($0, offset, unit.rawValue, out, capacity, status) }
            })
    }
}

/// CLDR measure units: unit names as a locale writes them.
public enum CLDRUnits {
    /// How long a unit's name is: `full` spells it out ("5 kilometers"), `short` abbreviates it ("5 km"), `narrow` is
    /// the shortest form the locale has ("5km").
    public enum Width: Sendable, CaseIterable { case full, short, narrow }

    /// Formats a measure, e.g. (5, "length-kilometer", .full) → "5 kilometers".
    public static func format(_ value: Double, unit: String, width: Width, locale: String) throws(ICUError) -> String {
        let raw: Int32 =
            switch width {
            case .full: Int32(PL_UNIT_WIDTH_FULL)
            case .short: Int32(PL_UNIT_WIDTH_SHORT)
            case .narrow: Int32(PL_UNIT_WIDTH_NARROW)
            }
        return String(
            utf16: try utf16Output(capacity: 64, "format unit \(unit) in '\(locale)'") { out, capacity, status in
                locale.withCString { l in unit.withCString { u in pl_format_measure(l, u, raw, value, out, capacity, status) } }
            })
    }
}

/// CLDR list patterns: "Ana, Luis and Bobo", "Ana, Luis y Bobo".
public enum CLDRLists {
    /// Joins items with the locale's "and" pattern, in the order given: ["Ana", "Luis", "Bobo"] → "Ana, Luis and Bobo"
    /// in "en", "Ana, Luis y Bobo" in "es". `locale` is an ICU locale id ("es_ES"). Throws `ICUError` when ICU cannot
    /// open the locale's list format or write the list.
    public static func conjunction(_ items: [String], locale: String) throws(ICUError) -> String {
        let arrays = items.map { Array($0.utf16) }
        let lengths = arrays.map { Int32($0.count) }
        let pointers = arrays.map { array -> UnsafeMutablePointer<UInt16> in
            let p = UnsafeMutablePointer<UInt16>.allocate(capacity: max(array.count, 1))
            p.initialize(from: array, count: array.count)
            return p
        }
        defer { for pointer in pointers { pointer.deallocate() } }
        let constPointers: [UnsafePointer<UInt16>?] = pointers.map { UnsafePointer($0) }
        return String(
            utf16: try utf16Output(capacity: 128, "format a list in '\(locale)'") { out, capacity, status in
                locale.withCString { pl_list_format($0, constPointers, lengths, Int32(items.count), out, capacity, status) }
            })
    }
}

/// UTS #39 confusable detection (ICU's spoof checker).
public enum Confusables {
    /// The confusable skeleton: two strings that look alike have the same skeleton
    /// ("MonkeyChat" and "MоnkeyChat" with a Cyrillic о).
    public static func skeleton(_ text: String) throws(ICUError) -> String {
        let input = Array(text.utf16)
        return String(
            utf16: try utf16Output(capacity: input.count * 2 + 8, "compute a confusable skeleton") { out, capacity, status in
                pl_confusable_skeleton(input, Int32(input.count), out, capacity, status)
            })
    }

    /// Whether text mixes scripts the way spoofed names do (e.g. Latin with one Cyrillic letter).
    public static func isSuspicious(_ text: String) -> Bool {
        let input = Array(text.utf16)
        var status: Int32 = 0
        let result = pl_is_suspicious(input, Int32(input.count), &status)
        return status <= 0 && result != 0
    }
}
