import CParlanceICU

/// CLDR currency data through ICU.
public enum CLDRCurrencies {
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
        var status: Int32 = 0
        var out = [CChar](repeating: 0, count: 4)
        let n = locale.withCString { pl_currency_for_locale($0, &out, &status) }
        guard status <= 0, n == 3 else { return nil }
        return String(decoding: out[0..<3].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// CLDR calendar data: month and weekday names, the short date pattern, relative dates.
public enum CLDRDates {
    public enum SymbolKind: Sendable, CaseIterable {
        case months, shortMonths, standaloneMonths, standaloneShortMonths
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

    public enum RelativeUnit: Int32, Sendable, CaseIterable {
        case year = 0
        case quarter, month, week, day, hour, minute, second
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
