import Foundation
import ParlanceICU

/// Currency names of one language, all from CLDR (symbols, ISO codes, display names and
/// their plural forms, and the bare head noun of multi-word names: "dólares" from
/// "dólares estadounidenses"), plus the colloquial names in `currencies.json`.
struct CurrencyLexicon: Sendable {
    struct Entry: Sendable {
        /// Candidate ISO codes.
        var codes: [String]
        /// 0: a full name, code, symbol or alias; 1: a bare head noun.
        var tier: Int
        /// A symbol or code, which may also stand before the amount ("$20", "EUR 20").
        var isSymbol: Bool
        /// The phrase's key, to look up `defaults`.
        var key: String
    }

    private(set) var index = PhraseIndex<Entry>()
    private let defaults: [String: String]
    let amountConnectors: Set<String>
    /// See `CurrencyData.minorUnits` (one-word names and connectors).
    let minorUnits: Set<String>
    let minorConnectors: Set<String>
    let bareMinorConnectors: Set<String>

    init(language: String, tokenizer: Tokenizer) throws {
        let data = try LanguageResources.load(CurrencyData.self, file: "currencies.json", language: language)
        var entries: [[String]: Entry] = [:]
        func add(_ phrase: String, _ code: String, tier: Int, isSymbol: Bool) {
            let keys = tokenizer.phraseKeys(phrase)
            guard !keys.isEmpty else { return }
            let key = keys.joined(separator: " ")
            if var existing = entries[keys] {
                if tier < existing.tier {
                    existing = Entry(codes: [code], tier: tier, isSymbol: isSymbol, key: key)
                } else if tier == existing.tier, !existing.codes.contains(code) {
                    existing.codes.append(code)
                    existing.isSymbol = existing.isSymbol || isSymbol
                }
                entries[keys] = existing
            } else {
                entries[keys] = Entry(codes: [code], tier: tier, isSymbol: isSymbol, key: key)
            }
        }
        let categories = (try? PluralRules.keywords(locale: language)) ?? ["other"]
        for code in try CLDRCurrencies.codes() {
            add(code, code, tier: 0, isSymbol: true)
            for style in [CLDRCurrencies.NameStyle.symbol, .narrowSymbol] {
                if let symbol = try? CLDRCurrencies.name(code, locale: language, style: style), symbol != code {
                    add(symbol, code, tier: 0, isSymbol: true)
                }
            }
            var names: [String] = []
            if let long = try? CLDRCurrencies.name(code, locale: language, style: .longName), long != code { names.append(long) }
            for category in categories {
                if let plural = try? CLDRCurrencies.pluralName(code, locale: language, category: category), plural != code {
                    names.append(plural)
                }
            }
            for name in Set(names) {
                add(name, code, tier: 0, isSymbol: false)
                let words = tokenizer.tokenize(name).filter { $0.kind == .word }
                if words.count > 1, let head = data.headWord == .first ? words.first : words.last, head.key.count >= 3 {
                    add(head.text, code, tier: 1, isSymbol: false)
                }
            }
        }
        for (alias, code) in data.aliases { add(alias, code, tier: 0, isSymbol: false) }
        // Ambiguous shared names ("$", "dollars") are settled by region, then `defaults`.
        for (keys, entry) in entries { index.insert(keys, entry) }
        var defaults: [String: String] = [:]
        for (name, code) in data.defaults { defaults[tokenizer.phraseKeys(name).joined(separator: " ")] = code }
        self.defaults = defaults
        self.amountConnectors = Set(data.amountConnectors.flatMap(tokenizer.phraseKeys))
        self.minorUnits = Set((data.minorUnits ?? []).flatMap(tokenizer.phraseKeys))
        self.minorConnectors = Set((data.minorConnectors ?? []).flatMap(tokenizer.phraseKeys))
        self.bareMinorConnectors = Set((data.bareMinorConnectors ?? []).flatMap(tokenizer.phraseKeys))
    }

    /// The currency an entry means for a locale region's currency (nil when unsettled).
    func resolve(_ entry: Entry, regionCurrency: String?) -> String? {
        if entry.codes.count == 1 { return entry.codes[0] }
        if let regionCurrency, entry.codes.contains(regionCurrency) { return regionCurrency }
        if let code = defaults[entry.key], entry.codes.contains(code) { return code }
        return nil
    }
}

/// Durations and distances: CLDR unit names in every width and plural form ("kilómetros",
/// "km", "Std."), plus `measures.json` (whole phrases such as "media hora", "and a half").
struct MeasureLexicon: Sendable {
    private(set) var units = PhraseIndex<Measure.Unit>()
    private(set) var phrases = PhraseIndex<(amount: Decimal, unit: Measure.Unit)>()
    private(set) var halves = PhraseIndex<Bool>()

    static let cldrUnits: [(String, Measure.Unit)] = [
        ("duration-second", .second), ("duration-minute", .minute), ("duration-hour", .hour),
        ("length-meter", .meter), ("length-kilometer", .kilometer), ("length-mile", .mile),
        ("energy-kilocalorie", .kilocalorie), ("energy-foodcalorie", .kilocalorie)
    ]

    init(language: String, tokenizer: Tokenizer) throws {
        let data = try LanguageResources.load(MeasureData.self, file: "measures.json", language: language)
        let excluded = Set(data.unitExclusions.map(TextNormalizer.key))
        for (cldr, unit) in MeasureLexicon.cldrUnits {
            for width in [CLDRUnits.Width.full, .short] {
                for value in [0.0, 1, 2, 3, 5, 11, 21, 100] {
                    guard let formatted = try? CLDRUnits.format(value, unit: cldr, width: width, locale: language) else { continue }
                    // Drop the number: what remains is the unit's name for that plural form.
                    let keys = tokenizer.phraseKeys(formatted).filter { !$0.allSatisfy(\.isNumber) && $0 != "," && $0 != "." }
                    guard !keys.isEmpty, !(keys.count == 1 && excluded.contains(keys[0])) else { continue }
                    units.insert(keys, unit)
                }
            }
        }
        for (alias, unitName) in data.unitAliases {
            guard let unit = Measure.Unit(rawValue: unitName) else {
                throw LanguageDataError(file: "\(language)/measures.json", message: "at .unitAliases.\(alias): unknown unit '\(unitName)'")
            }
            units.insert(tokenizer.phraseKeys(alias), unit, replace: true)
        }
        for phrase in data.phrases {
            guard let unit = Measure.Unit(rawValue: phrase.unit) else {
                throw LanguageDataError(
                    file: "\(language)/measures.json", message: "phrase '\(phrase.text)': unknown unit '\(phrase.unit)'")
            }
            phrases.insert(tokenizer.phraseKeys(phrase.text), (Decimal(string: "\(phrase.amount)") ?? Decimal(phrase.amount), unit))
        }
        for half in data.halfSuffixes { halves.insert(tokenizer.phraseKeys(half), true) }
    }
}

extension CurrencyLexicon: ImageCodable {
    package func write(to image: inout ImageWriter) {
        index.write(to: &image)
        image.write(defaults)
        image.write(amountConnectors)
        image.write(minorUnits)
        image.write(minorConnectors)
        image.write(bareMinorConnectors)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        index = try PhraseIndex(from: &image)
        defaults = try image.read()
        amountConnectors = try image.read()
        minorUnits = try image.read()
        minorConnectors = try image.read()
        bareMinorConnectors = try image.read()
    }
}

extension MeasureLexicon: ImageCodable {
    package func write(to image: inout ImageWriter) {
        units.write(to: &image)
        phrases.write(to: &image) { value, image in
            image.write(value.amount.description)
            image.write(value.unit)
        }
        halves.write(to: &image)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        units = try PhraseIndex(from: &image)
        phrases = try PhraseIndex(from: &image) { (image: inout ImageReader) throws(ImageError) in
            guard let amount = Decimal(string: try image.read(String.self), locale: Locale(identifier: "en_US_POSIX")) else {
                throw ImageError("an amount that is no number")
            }
            return (amount, try image.read(Measure.Unit.self))
        }
        halves = try PhraseIndex(from: &image)
    }
}
