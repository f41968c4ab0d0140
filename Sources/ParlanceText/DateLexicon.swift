import ParlanceICU

/// A date expression before it is resolved against a reference time.
enum DateExpression: Sendable {
    /// "tonight", "ce soir": a time said after it is in the evening ("tonight at 8" → 20:00).
    var isEvening: Bool {
        if case .dayPart(_, let part) = self { return part == "evening" }
        return false
    }

    enum Unit: Sendable { case day, week, month, year }
    /// `offset` units from the reference ("yesterday": day −1; "last week": week −1);
    /// with `perSlot`, the offset is `perSlot × the number said` ("hace 3 días").
    case relative(Unit, offset: Int, perSlot: Bool)
    /// A weekday (1 = Sunday): −1 the last one before today, 0 the one of this week,
    /// +1 the next one after today, nil the next one from today on.
    case weekday(Int, offset: Int?)
    /// A month name (1 = January), meaning that month of the reference year.
    case month(Int)
    /// A part of a day ("this morning").
    case dayPart(dayOffset: Int, part: String)
    /// Saturday and Sunday of a week (0 this week's).
    case weekend(offset: Int)
}

/// Date words of one language: CLDR relative-date phrases ("el lunes pasado", "avant-hier",
/// "vor 3 Tagen", with the number as a slot), CLDR month and weekday names, and the
/// phrases in `dates.json` that CLDR lacks ("this morning", "last weekend").
struct DateLexicon: Sendable {
    private(set) var phrases = PhraseIndex<DateExpression>()
    /// Month names, full and abbreviated: (month, is a full name that may stand alone).
    private(set) var months = PhraseIndex<(month: Int, standalone: Bool)>()
    let dayParts: [String: (start: Int, end: Int)]
    let connectors: Set<String>
    let ordinalSuffixes: Set<String>
    let ambiguousMonths: Set<String>
    /// Day, month and year order of the locale's numeric dates, e.g. ["d", "M", "y"].
    let numericOrder: [Character]
    /// Words of times of day.
    let times: TimeWords
    /// Words of repetitions ("every Monday", "todos los días"); nil when `dates.json` has none.
    let recurrence: RecurrenceWords?

    struct RecurrenceWords: Sendable {
        var every = PhraseIndex<Bool>()
        var units = PhraseIndex<Recurrence.Frequency>()
        var adverbs = PhraseIndex<Recurrence.Frequency>()
        var dayParts = PhraseIndex<String>()
        /// Weekday names, aliases and their plurals (1 = Sunday).
        var weekdays = PhraseIndex<Int>()
        var weekdayAdverbs = PhraseIndex<Int>()
        var conjunctions = PhraseIndex<Bool>()

        /// Whether a repetition may start with `key`: an adverb, a weekday adverb or an
        /// "every" word may (`PhraseIndex.mayStart`).
        func mayStart(with key: String) -> Bool {
            adverbs.mayStart(with: key) || weekdayAdverbs.mayStart(with: key) || every.mayStart(with: key)
        }
    }

    struct TimeWords: Sendable {
        var connectors = PhraseIndex<Bool>()
        var namedHours = PhraseIndex<Int>()
        var meridiem = PhraseIndex<String>()
        var hourSuffixes: Set<String> = []
        var halfPast = PhraseIndex<Bool>()
    }

    init(language: String, tokenizer: Tokenizer) throws {
        let data = try LanguageResources.load(DateData.self, file: "dates.json", language: language)
        let articles = Set(data.optionalArticles.flatMap(tokenizer.phraseKeys))
        var phrases = PhraseIndex<DateExpression>()
        func add(_ text: String, _ expression: DateExpression, slotValue: Int? = nil) {
            var keys = tokenizer.phraseKeys(text)
            if let slotValue {
                // "in 3 days" → "in # days": the number becomes a slot.
                guard let at = keys.firstIndex(of: String(slotValue)) else { return }
                keys[at] = PhraseIndex<DateExpression>.numberSlot
            }
            phrases.insert(keys, expression)
            if keys.count > 1, articles.contains(keys[0]) { phrases.insert(Array(keys.dropFirst()), expression) }
        }
        let units: [(CLDRDates.RelativeUnit, DateExpression.Unit, ClosedRange<Int>)] = [
            (.day, .day, -2...2), (.week, .week, -1...1), (.month, .month, -1...1), (.year, .year, -1...1)
        ]
        for (cldr, unit, offsets) in units {
            for offset in offsets {
                if let text = try? CLDRDates.relative(Double(offset), cldr, locale: language) {
                    add(text, .relative(unit, offset: offset, perSlot: false))
                }
            }
            for sign in [-1, 1] {
                if let text = try? CLDRDates.relative(Double(sign * 3), cldr, locale: language) {
                    add(text, .relative(unit, offset: sign, perSlot: true), slotValue: 3)
                }
            }
        }
        let weekdayUnits: [CLDRDates.RelativeUnit] = [.sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday]
        for (n, unit) in weekdayUnits.enumerated() {
            for offset in -1...1 {
                if let text = try? CLDRDates.relative(Double(offset), unit, locale: language) {
                    add(text, .weekday(n + 1, offset: offset))
                }
            }
        }
        for kind in [CLDRDates.SymbolKind.weekdays, .standaloneWeekdays] {
            for (n, name) in ((try? CLDRDates.symbols(kind, locale: language)) ?? []).enumerated() {
                phrases.insert(tokenizer.phraseKeys(name), .weekday(n + 1, offset: nil))
            }
        }
        for (alias, weekday) in data.weekdayAliases { phrases.insert(tokenizer.phraseKeys(alias), .weekday(weekday, offset: nil)) }
        for phrase in data.phrases {
            if let part = phrase.dayPart {
                guard data.dayParts[part] != nil else {
                    throw LanguageDataError(file: "\(language)/dates.json", message: "phrase '\(phrase.text)': unknown day part '\(part)'")
                }
                add(phrase.text, .dayPart(dayOffset: phrase.dayOffset ?? 0, part: part))
            } else if let week = phrase.weekOffset {
                add(phrase.text, .relative(.week, offset: week, perSlot: false))
            } else if let month = phrase.monthOffset {
                add(phrase.text, .relative(.month, offset: month, perSlot: false))
            } else if let weekend = phrase.weekendOffset {
                add(phrase.text, .weekend(offset: weekend))
            } else if let offset = phrase.dayOffset {
                add(phrase.text, .relative(.day, offset: offset, perSlot: false))
            } else {
                throw LanguageDataError(
                    file: "\(language)/dates.json", message: "phrase '\(phrase.text)' says neither dayOffset nor weekendOffset")
            }
        }
        self.phrases = phrases
        for kind in [CLDRDates.SymbolKind.months, .standaloneMonths, .shortMonths, .standaloneShortMonths] {
            let full = kind == .months || kind == .standaloneMonths
            for (n, name) in ((try? CLDRDates.symbols(kind, locale: language)) ?? []).enumerated() {
                let keys = tokenizer.phraseKeys(name).filter { $0 != "." }
                if full {
                    months.insert(keys, (n + 1, true), replace: true)
                } else {
                    months.insert(keys, (n + 1, false))
                }
            }
        }
        for (alias, month) in data.monthAliases { months.insert(tokenizer.phraseKeys(alias), (month, false)) }
        var parts: [String: (Int, Int)] = [:]
        for (name, hours) in data.dayParts {
            guard hours.count == 2, hours[0] < hours[1], hours[0] >= 0, hours[1] <= 24 else {
                throw LanguageDataError(file: "\(language)/dates.json", message: "at .dayParts.\(name): expected [start hour, end hour]")
            }
            parts[name] = (hours[0], hours[1])
        }
        self.dayParts = parts
        self.connectors = Set(data.connectors.flatMap(tokenizer.phraseKeys))
        self.ordinalSuffixes = Set(data.ordinalSuffixes.flatMap(tokenizer.phraseKeys))
        self.ambiguousMonths = Set(data.ambiguousMonthNames.map(TextNormalizer.key))
        var times = TimeWords()
        // Connectors keep their accents: Portuguese "às" (at) is not the article "as".
        for connector in data.time.connectors {
            times.connectors.insert(TokenStream(tokenizer.tokenize(connector)).normalized, true)
        }
        for (word, hour) in data.time.namedHours { times.namedHours.insert(tokenizer.phraseKeys(word), hour) }
        for (value, words) in data.time.meridiem {
            guard value == "am" || value == "pm" else {
                throw LanguageDataError(
                    file: "\(language)/dates.json", message: "at .time.meridiem: expected the keys am and pm, not '\(value)'")
            }
            for word in words { times.meridiem.insert(tokenizer.phraseKeys(word), value) }
        }
        times.hourSuffixes = Set(data.time.hourSuffixes.flatMap(tokenizer.phraseKeys))
        for half in data.time.halfPast { times.halfPast.insert(tokenizer.phraseKeys(half), true) }
        self.times = times
        if let recurring = data.recurrence {
            var words = RecurrenceWords()
            func frequency(_ name: String, _ key: String) throws -> Recurrence.Frequency {
                guard let f = Recurrence.Frequency(rawValue: name) else {
                    throw LanguageDataError(
                        file: "\(language)/dates.json",
                        message: "at .recurrence.\(key): unknown frequency '\(name)' (daily, weekly, monthly, yearly)")
                }
                return f
            }
            for word in recurring.every { words.every.insert(tokenizer.phraseKeys(word), true) }
            for (name, list) in recurring.units {
                let f = try frequency(name, "units")
                for word in list { words.units.insert(tokenizer.phraseKeys(word), f) }
            }
            for (name, list) in recurring.adverbs {
                let f = try frequency(name, "adverbs")
                for word in list { words.adverbs.insert(tokenizer.phraseKeys(word), f) }
            }
            for (part, list) in recurring.dayParts {
                guard parts[part] != nil else {
                    throw LanguageDataError(file: "\(language)/dates.json", message: "at .recurrence.dayParts: unknown day part '\(part)'")
                }
                for word in list { words.dayParts.insert(tokenizer.phraseKeys(word), part) }
            }
            var names: [(String, Int)] = data.weekdayAliases.map { ($0.key, $0.value) }
            for kind in [CLDRDates.SymbolKind.weekdays, .standaloneWeekdays] {
                for (n, name) in ((try? CLDRDates.symbols(kind, locale: language)) ?? []).enumerated() { names.append((name, n + 1)) }
            }
            for (name, weekday) in names {
                words.weekdays.insert(tokenizer.phraseKeys(name), weekday)
                for ending in recurring.weekdayPlurals { words.weekdays.insert(tokenizer.phraseKeys(name + ending), weekday) }
            }
            for (word, weekday) in recurring.weekdayAdverbs {
                guard (1...7).contains(weekday) else {
                    throw LanguageDataError(
                        file: "\(language)/dates.json", message: "at .recurrence.weekdayAdverbs.\(word): expected 1 (Sunday) … 7")
                }
                words.weekdayAdverbs.insert(tokenizer.phraseKeys(word), weekday)
            }
            for word in recurring.conjunctions { words.conjunctions.insert(tokenizer.phraseKeys(word), true) }
            self.recurrence = words
        } else {
            self.recurrence = nil
        }
        let pattern = (try? CLDRDates.shortDatePattern(locale: language)) ?? "d/M/y"
        var order: [Character] = []
        for c in pattern where "dMy".contains(c) && !order.contains(c) { order.append(c) }
        self.numericOrder = order.count == 3 ? order : ["d", "M", "y"]
    }

    /// The single day an expression names, to put a time of day on ("tomorrow", "el lunes").
    func day(of expression: DateExpression, reference: ReferenceTime) -> CivilDate? {
        switch expression {
        case .relative(.day, _, _), .weekday, .dayPart:
            guard let value = resolve(expression, slot: nil, reference: reference) else { return nil }
            switch value {
            case .date(let text): return CivilDate(iso: text)
            case .dateRange(let range): return CivilDate(iso: String(range.start.prefix(10)))
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The value of an expression at a reference time.
    func resolve(_ expression: DateExpression, slot: Int?, reference: ReferenceTime) -> EntityValue? {
        let today = reference.date
        func day(_ d: CivilDate) -> EntityValue { .date(d.description) }
        func range(_ a: CivilDate, _ b: CivilDate) -> EntityValue { .dateRange(DateRange(start: a.description, end: b.description)) }
        switch expression {
        case .relative(let unit, let offset, let perSlot):
            let n = perSlot ? offset * (slot ?? 1) : offset
            switch unit {
            case .day: return day(today.adding(days: n))
            case .week:
                let monday = today.monday.adding(days: 7 * n)
                return range(monday, monday.adding(days: 6))
            case .month:
                let first = today.firstOfMonth(adding: n)
                return range(first, first.lastOfMonth)
            case .year:
                return range(CivilDate(year: today.year + n, month: 1, day: 1), CivilDate(year: today.year + n, month: 12, day: 31))
            }
        case .weekday(let weekday, let offset):
            let delta = (weekday - today.weekday + 7) % 7
            switch offset {
            case -1: return day(today.adding(days: delta == 0 ? -7 : delta - 7))
            case 0: return day(today.monday.adding(days: (weekday + 5) % 7))
            case 1: return day(today.adding(days: delta == 0 ? 7 : delta))
            default: return day(today.adding(days: delta))
            }
        case .month(let month):
            let first = CivilDate(year: today.year, month: month, day: 1)
            return range(first, first.lastOfMonth)
        case .dayPart(let offset, let part):
            guard let hours = dayParts[part] else { return nil }
            let d = today.adding(days: offset)
            return .dateRange(DateRange(start: reference.dateTime(d, hour: hours.start), end: reference.dateTime(d, hour: hours.end)))
        case .weekend(let offset):
            let saturday = today.monday.adding(days: 7 * offset + 5)
            return range(saturday, saturday.adding(days: 1))
        }
    }
}

extension DateLexicon: ImageCodable {
    package func write(to image: inout ImageWriter) {
        phrases.write(to: &image)
        months.write(to: &image) { value, image in
            image.write(value.month)
            image.write(value.standalone)
        }
        image.write(dayParts.mapValues { [$0.start, $0.end] })
        image.write(connectors)
        image.write(ordinalSuffixes)
        image.write(ambiguousMonths)
        image.write(String(numericOrder))
        times.connectors.write(to: &image)
        times.namedHours.write(to: &image)
        times.meridiem.write(to: &image)
        image.write(times.hourSuffixes)
        times.halfPast.write(to: &image)
        image.write(recurrence != nil)
        if let words = recurrence {
            words.every.write(to: &image)
            words.units.write(to: &image)
            words.adverbs.write(to: &image)
            words.dayParts.write(to: &image)
            words.weekdays.write(to: &image)
            words.weekdayAdverbs.write(to: &image)
            words.conjunctions.write(to: &image)
        }
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        phrases = try PhraseIndex(from: &image)
        months = try PhraseIndex(from: &image) { (image: inout ImageReader) throws(ImageError) in
            (try image.read(Int.self), try image.read(Bool.self))
        }
        var parts: [String: (start: Int, end: Int)] = [:]
        for (name, hours) in try image.read([String: [Int]].self) {
            guard hours.count == 2 else { throw ImageError("a day part without two hours") }
            parts[name] = (hours[0], hours[1])
        }
        dayParts = parts
        connectors = try image.read()
        ordinalSuffixes = try image.read()
        ambiguousMonths = try image.read()
        numericOrder = Array(try image.read(String.self))
        var times = TimeWords()
        times.connectors = try PhraseIndex(from: &image)
        times.namedHours = try PhraseIndex(from: &image)
        times.meridiem = try PhraseIndex(from: &image)
        times.hourSuffixes = try image.read()
        times.halfPast = try PhraseIndex(from: &image)
        self.times = times
        if try image.read(Bool.self) {
            var words = RecurrenceWords()
            words.every = try PhraseIndex(from: &image)
            words.units = try PhraseIndex(from: &image)
            words.adverbs = try PhraseIndex(from: &image)
            words.dayParts = try PhraseIndex(from: &image)
            words.weekdays = try PhraseIndex(from: &image)
            words.weekdayAdverbs = try PhraseIndex(from: &image)
            words.conjunctions = try PhraseIndex(from: &image)
            recurrence = words
        } else {
            recurrence = nil
        }
    }
}
