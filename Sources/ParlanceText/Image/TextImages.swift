import Foundation

// The text layer's lexicons as compiled images (`ImageCache`): what CLDR's currency, unit,
// month and weekday names and each language's data files make, built once.

extension PhraseIndex {
    /// Writes every phrase with its value (through `value`), in a fixed order.
    func write(to image: inout ImageWriter, value: (Value, inout ImageWriter) -> Void) {
        let entries = self.entries
        image.write(entries.count)
        for (keys, v) in entries {
            image.write(keys)
            value(v, &image)
        }
    }

    /// An index of the phrases `write(to:value:)` wrote (their values read through `value`).
    init(from image: inout ImageReader, value: (inout ImageReader) throws(ImageError) -> Value) throws(ImageError) {
        self.init()
        for _ in 0..<(try image.count(least: 9)) {
            let keys = try image.read([String].self)
            guard !keys.isEmpty else { throw ImageError("an empty phrase in an index") }
            insert(keys, try value(&image))
        }
    }
}

extension PhraseIndex where Value: ImageCodable {
    func write(to image: inout ImageWriter) { write(to: &image) { $1.write($0) } }
    init(from image: inout ImageReader) throws(ImageError) {
        try self.init(from: &image) { (r: inout ImageReader) throws(ImageError) in try r.read(Value.self) }
    }
}

extension Measure.Unit: ImageCodable {
    package func write(to image: inout ImageWriter) { image.write(rawValue) }
    package init(from image: inout ImageReader) throws(ImageError) {
        guard let unit = Self(rawValue: try image.read(String.self)) else { throw ImageError("unknown unit") }
        self = unit
    }
}

extension Recurrence.Frequency: ImageCodable {
    package func write(to image: inout ImageWriter) { image.write(rawValue) }
    package init(from image: inout ImageReader) throws(ImageError) {
        guard let frequency = Self(rawValue: try image.read(String.self)) else { throw ImageError("unknown frequency") }
        self = frequency
    }
}

extension CurrencyLexicon.Entry: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(codes)
        image.write(tier)
        image.write(isSymbol)
        image.write(key)
    }
    package init(from image: inout ImageReader) throws(ImageError) {
        self.init(codes: try image.read(), tier: try image.read(), isSymbol: try image.read(), key: try image.read())
    }
}

extension DateExpression.Unit: ImageCodable {
    package func write(to image: inout ImageWriter) {
        let tag: UInt8 =
            switch self {
            case .day: 0
            case .week: 1
            case .month: 2
            case .year: 3
            }
        image.write(tag)
    }
    package init(from image: inout ImageReader) throws(ImageError) {
        switch try image.read(UInt8.self) {
        case 0: self = .day
        case 1: self = .week
        case 2: self = .month
        case 3: self = .year
        default: throw ImageError("unknown date unit")
        }
    }
}

extension DateExpression: ImageCodable {
    package func write(to image: inout ImageWriter) {
        switch self {
        case .relative(let unit, let offset, let perSlot):
            image.write(UInt8(0))
            image.write(unit)
            image.write(offset)
            image.write(perSlot)
        case .weekday(let day, let offset):
            image.write(UInt8(1))
            image.write(day)
            image.write(offset)
        case .month(let month):
            image.write(UInt8(2))
            image.write(month)
        case .dayPart(let dayOffset, let part):
            image.write(UInt8(3))
            image.write(dayOffset)
            image.write(part)
        case .weekend(let offset):
            image.write(UInt8(4))
            image.write(offset)
        }
    }
    package init(from image: inout ImageReader) throws(ImageError) {
        switch try image.read(UInt8.self) {
        case 0: self = .relative(try image.read(), offset: try image.read(), perSlot: try image.read())
        case 1: self = .weekday(try image.read(), offset: try image.read())
        case 2: self = .month(try image.read())
        case 3: self = .dayPart(dayOffset: try image.read(), part: try image.read())
        case 4: self = .weekend(offset: try image.read())
        default: throw ImageError("unknown date expression")
        }
    }
}

/// A language's currency, unit and date lexicons, as one image.
struct TextLexicons: ImageCodable {
    var currencies: CurrencyLexicon
    var measures: MeasureLexicon
    var dates: DateLexicon

    init(currencies: CurrencyLexicon, measures: MeasureLexicon, dates: DateLexicon) {
        self.currencies = currencies
        self.measures = measures
        self.dates = dates
    }

    func write(to image: inout ImageWriter) {
        currencies.write(to: &image)
        measures.write(to: &image)
        dates.write(to: &image)
    }

    init(from image: inout ImageReader) throws(ImageError) {
        currencies = try CurrencyLexicon(from: &image)
        measures = try MeasureLexicon(from: &image)
        dates = try DateLexicon(from: &image)
    }

    /// The lexicons of `language`, read from their image when one matches the language's data
    /// files and ICU's version (CLDR's names are what they are built from), else built.
    static func load(language: String, tokenizer: Tokenizer) throws -> TextLexicons {
        let folder = LanguageResources.directory?.appendingPathComponent(language)
        let sources = ["currencies.json", "measures.json", "dates.json", "tokenizer.json"].compactMap { folder?.appendingPathComponent($0) }
        return try ImageCache.load("lexicons", language: language, sources: sources) {
            TextLexicons(
                currencies: try CurrencyLexicon(language: language, tokenizer: tokenizer),
                measures: try MeasureLexicon(language: language, tokenizer: tokenizer),
                dates: try DateLexicon(language: language, tokenizer: tokenizer))
        }.value
    }
}
