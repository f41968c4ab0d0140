import Foundation
import ParlanceICU

/// Everything Parlance knows about one language's text: its tokenizer and the lexicons of
/// its value recognizers, built once from ICU/CLDR and the language's data files.
/// Immutable and thread-safe.
public final class LanguagePack: Sendable {
    /// The language code the pack was built for ("es"): a folder of `Languages/`.
    public let language: String
    /// The language's tokenizer.
    public let tokenizer: Tokenizer
    let numbers: NumberLexicon
    let currencies: CurrencyLexicon
    let measures: MeasureLexicon
    let dates: DateLexicon
    let decimal: NumberFormat

    /// Builds a language's pack: its tokenizer and its number, currency, measure and date lexicons, from ICU/CLDR and the
    /// files in `Languages/<language>/`. Building takes a while (every CLDR spell-out of the numbers up to 999, every
    /// currency and unit name), so build a pack once and share it, as `TextAnalyzer` does. Throws `LanguageDataError`
    /// when a data file is missing or malformed, and `ICUError` when ICU cannot serve the language.
    public init(language: String) throws {
        self.language = language
        let tokenizer = try Tokenizer(language: language)
        self.tokenizer = tokenizer
        self.numbers = try NumberLexicon.load(language: language, tokenizer: tokenizer)
        let lexicons = try TextLexicons.load(language: language, tokenizer: tokenizer)
        self.currencies = lexicons.currencies
        self.measures = lexicons.measures
        self.dates = lexicons.dates
        self.decimal = try NumberFormat(locale: language, style: .decimal)
    }

    /// The typed values in a tokenized utterance, left to right, not overlapping.
    public func entities(in tokens: [Token], text: String, locale: ParlanceLocale, reference: ReferenceTime) -> [Entity] {
        let stream = TokenStream(tokens, text: text)
        // (CLDRCurrencies keeps each locale's answer, bounded.)
        let regionCurrency = locale.region.flatMap { _ in CLDRCurrencies.currency(forLocale: locale.icuIdentifier) }
        var recognizer = Recognition(pack: self, stream: stream, reference: reference, regionCurrency: regionCurrency)
        return recognizer.run()
    }
}

/// One pass of the value recognizers over one utterance.
/// The numbers of an utterance by the unit each starts at: nil where none starts, and for
/// any unit outside the utterance (read by index, not hashed).
struct NumbersByStart {
    private var items: [NumberMatch?]

    init(count: Int) { items = Array(repeating: nil, count: count) }

    subscript(unit: Int) -> NumberMatch? {
        get { unit >= 0 && unit < items.count ? items[unit] : nil }
        set { items[unit] = newValue }
    }
}

private struct Recognition {
    struct Candidate {
        var start: Int
        var end: Int
        var value: EntityValue
        var priority: Int
    }

    let pack: LanguagePack
    let stream: TokenStream
    let reference: ReferenceTime
    let regionCurrency: String?
    var numbers: [NumberMatch] = []
    var numberAt = NumbersByStart(count: 0)
    /// Where the last number written in digits starts (-1: none): an amount with its symbol
    /// first ("$20") needs one after the symbol.
    var lastDigits = -1
    var candidates: [Candidate] = []
    let normalizedUnits: [String]
    /// The language's repetition words, taken from the pack once per utterance (not per unit).
    let recurrenceWords: DateLexicon.RecurrenceWords?

    init(pack: LanguagePack, stream: TokenStream, reference: ReferenceTime, regionCurrency: String?) {
        self.pack = pack
        self.stream = stream
        self.reference = reference
        self.regionCurrency = regionCurrency
        self.normalizedUnits = stream.normalized
        self.recurrenceWords = pack.dates.recurrence
    }

    mutating func run() -> [Entity] {
        guard stream.count > 0 else { return [] }
        numbers = pack.numbers.find(in: stream, decimal: pack.decimal)
        numberAt = NumbersByStart(count: stream.count)
        for number in numbers {
            numberAt[number.start] = number
            if number.isDigits { lastDigits = max(lastDigits, number.start) }
        }
        for number in numbers {
            if !number.isWeak {
                candidates.append(Candidate(start: number.start, end: number.end, value: .number(number.value), priority: 1))
            }
            amountAfter(number)
            measureAfter(number)
        }
        for i in 0..<stream.count {
            amountBefore(i)
            measurePhrase(i)
            dates(i)
        }
        return select()
    }

    /// "20 €", "veinte euros", "un millón de dólares", "twenty bucks".
    private mutating func amountAfter(_ number: NumberMatch) {
        var j = number.end
        if j < stream.count, pack.currencies.amountConnectors.contains(stream.keys[j]) { j += 1 }
        var best: (entry: CurrencyLexicon.Entry, end: Int)?
        for start in Set([number.end, j]) {
            if let match = pack.currencies.index.longestMatch(in: stream.keys, from: start), best == nil || match.end > best!.end {
                best = (match.value, match.end)
            }
        }
        guard let best, let code = pack.currencies.resolve(best.entry, regionCurrency: regionCurrency) else { return }
        let (amount, end) = cents(after: best.end, whole: number.value)
        // A bare head noun ("marco" of "marco conversível") yields to a date or a unit.
        candidates.append(
            Candidate(
                start: number.start, end: end, value: .currencyAmount(CurrencyAmount(amount: amount, currency: code)),
                priority: best.entry.tier == 0 ? 3 : 2))
    }

    /// The cents said after a whole amount's currency name, if any: "12 euros 50", "fifteen
    /// dollars and fifty cents", "22 euros con cincuenta" (1 to 99, a whole number).
    private func cents(after end: Int, whole: Decimal) -> (Decimal, Int) {
        let c = pack.currencies
        var j = end
        var joined: String?
        if j < stream.count, c.minorConnectors.contains(stream.keys[j]) || c.bareMinorConnectors.contains(stream.keys[j]) {
            joined = stream.keys[j]
            j += 1
        }
        var w = whole
        var rounded = Decimal()
        NSDecimalRound(&rounded, &w, 0, .plain)
        guard rounded == whole, let minor = numberAt[j], !minor.isWeak, let n = minor.intValue, (1...99).contains(n) else {
            return (whole, end)
        }
        let hundredths = Decimal(n) / 100
        if minor.end < stream.count, c.minorUnits.contains(stream.keys[minor.end]) { return (whole + hundredths, minor.end + 1) }
        // No unit after it: a bare number from 10 in digits right after the name, or after a
        // connector that joins bare cents, and nothing that makes it a quantity of something
        // else ("10 dollars 2 times", "20 euros con 3 amigos" are not cents).
        let bare = joined.map { c.bareMinorConnectors.contains($0) } ?? minor.isDigits
        guard bare, n >= 10, minor.end >= stream.count || numberAt[minor.end] == nil else { return (whole, end) }
        if minor.end < stream.count, pack.measures.units.longestMatch(in: stream.keys, from: minor.end) != nil { return (whole, end) }
        return (whole + hundredths, minor.end)
    }

    /// "$20", "€ 5,50", "USD 100".
    private mutating func amountBefore(_ i: Int) {
        guard i < lastDigits, let match = pack.currencies.index.longestMatch(in: stream.keys, from: i), match.value.isSymbol,
            let number = numberAt[match.end], number.isDigits,
            // An ISO code is written in capitals: "BOB 10" is bolivianos, "Bob 10" is Bob.
            !(match.end == i + 1 && stream.keys[i].count == 3 && stream.keys[i].allSatisfy(\.isLetter)
                && stream.token(i).text != stream.token(i).text.uppercased()),
            let code = pack.currencies.resolve(match.value, regionCurrency: regionCurrency)
        else { return }
        candidates.append(
            Candidate(start: i, end: number.end, value: .currencyAmount(CurrencyAmount(amount: number.value, currency: code)), priority: 3))
    }

    /// "5 km", "30 minutos", "une heure et demie", "2 Stunden".
    private mutating func measureAfter(_ number: NumberMatch) {
        guard let unit = pack.measures.units.longestMatch(in: stream.keys, from: number.end) else { return }
        var amount = number.value
        var end = unit.end
        if let half = pack.measures.halves.longestMatch(in: stream.keys, from: end) {
            amount += Decimal(string: "0.5")!
            end = half.end
        }
        // A unit beats a currency symbol that spells the same ("5 km" is not 5 Bosnian marks).
        candidates.append(Candidate(start: number.start, end: end, value: measure(amount, unit.value), priority: 4))
    }

    /// "half an hour", "media hora", "eine Viertelstunde".
    private mutating func measurePhrase(_ i: Int) {
        guard let match = pack.measures.phrases.longestMatch(in: stream.keys, from: i) else { return }
        candidates.append(Candidate(start: i, end: match.end, value: measure(match.value.amount, match.value.unit), priority: 5))
    }

    private func measure(_ amount: Decimal, _ unit: Measure.Unit) -> EntityValue {
        let m = Measure(amount: amount, unit: unit)
        return unit.isDuration ? .duration(m) : unit.isEnergy ? .energy(m) : .distance(m)
    }

    private mutating func dates(_ i: Int) {
        if let (end, value) = recurrence(at: i, time: nil) {
            candidates.append(Candidate(start: i, end: end, value: .recurrence(value), priority: 4))
        }
        // The time of day said here, worked out once for the two readings that ask for it.
        let timeHere = timeOfDay(at: i, evening: false)
        // "at 9 every day": the time before the repetition.
        if let time = timeHere, time.strong || time.end > i + 1,
            let (end, value) = recurrence(at: time.end, time: (time.hour, time.minute))
        {
            candidates.append(Candidate(start: i, end: end, value: .recurrence(value), priority: 4))
        }
        if let (end, value) = explicitDate(at: i) {
            candidates.append(Candidate(start: i, end: end, value: value, priority: 4))
        }
        let slotNumber: (Int) -> (length: Int, value: Double)? = { [numberAt] unit in
            guard let n = numberAt[unit] else { return nil }
            return (n.end - n.start, NSDecimalNumber(decimal: n.value).doubleValue)
        }
        if let match = pack.dates.phrases.longestMatch(in: stream.keys, from: i, numberAt: slotNumber),
            let value = pack.dates.resolve(match.value, slot: match.slots.first.map { Int($0) }, reference: reference)
        {
            candidates.append(Candidate(start: i, end: match.end, value: value, priority: 2))
            // "tomorrow at 8 am", "mañana a las 8", "ce soir à 20 h".
            if let day = pack.dates.day(of: match.value, reference: reference),
                let time = timeOfDay(at: match.end, evening: match.value.isEvening)
            {
                candidates.append(
                    Candidate(
                        start: i, end: time.end, value: .dateTime(reference.dateTime(day, hour: time.hour, minute: time.minute)),
                        priority: 4))
            }
        }
        if let time = timeHere {
            // A time known only by its connector ("um 10") yields to an amount ("10 Euro").
            candidates.append(
                Candidate(
                    start: i, end: time.end, value: .dateTime(reference.dateTime(reference.date, hour: time.hour, minute: time.minute)),
                    priority: time.strong ? 3 : 2))
        }
        if let month = pack.dates.months.longestMatch(in: stream.keys, from: i), month.value.standalone {
            let key = stream.keys[i..<month.end].joined(separator: " ")
            let capitalized = stream.token(i).text.first?.isUppercase ?? false
            if !pack.dates.ambiguousMonths.contains(key) || capitalized,
                let value = pack.dates.resolve(.month(month.value.month), slot: nil, reference: reference)
            {
                candidates.append(Candidate(start: i, end: month.end, value: value, priority: 2))
            }
        }
    }

    /// A repetition at unit `i`: a phrase ("daily", "todos los días"), a weekday adverb
    /// ("montags"), or an "every" word before a unit ("every week"), a part of the day ("chaque
    /// soir") or weekdays ("every Monday and Thursday", "tous les lundis"); then a time of day
    /// ("at 9"), unless `time` was said before it.
    private func recurrence(at i: Int, time said: (hour: Int, minute: Int)?) -> (Int, Recurrence)? {
        // Ruled out before the words are taken (most units start none).
        guard i < stream.count, recurrenceWords?.mayStart(with: stream.keys[i]) == true, let words = recurrenceWords else { return nil }
        let keys = stream.keys
        var j = i
        var frequency: Recurrence.Frequency
        var weekdays: [Int] = []
        var part: String?
        func moreWeekdays() {
            while let and = words.conjunctions.longestMatch(in: keys, from: j),
                let next = words.weekdays.longestMatch(in: keys, from: and.end)
                    ?? words.weekdayAdverbs.longestMatch(in: keys, from: and.end)
            {
                if !weekdays.contains(next.value) { weekdays.append(next.value) }
                j = next.end
            }
        }
        if let adverb = words.adverbs.longestMatch(in: keys, from: i) {
            frequency = adverb.value
            j = adverb.end
        } else if let adverb = words.weekdayAdverbs.longestMatch(in: keys, from: i) {
            frequency = .weekly
            weekdays = [adverb.value]
            j = adverb.end
            moreWeekdays()
        } else if let every = words.every.longestMatch(in: keys, from: i) {
            j = every.end
            if let unit = words.units.longestMatch(in: keys, from: j) {
                frequency = unit.value
                j = unit.end
            } else if let dayPart = words.dayParts.longestMatch(in: keys, from: j) {
                frequency = .daily
                part = dayPart.value
                j = dayPart.end
            } else if let weekday = words.weekdays.longestMatch(in: keys, from: j) {
                frequency = .weekly
                weekdays = [weekday.value]
                j = weekday.end
                moreWeekdays()
            } else {
                return nil
            }
        } else {
            return nil
        }
        if part == nil, frequency == .daily || !weekdays.isEmpty, let dayPart = words.dayParts.longestMatch(in: keys, from: j) {
            // "every day in the evening" is rare; "daily evening" rarer: only a bare part right
            // after, as after weekdays ("tous les lundis soir", "dienstags und freitags abends").
            part = dayPart.value
            j = dayPart.end
        }
        var time = said
        if time == nil, let after = timeOfDay(at: j, evening: part == "evening") {
            time = (after.hour, after.minute)
            j = after.end
        }
        var start: String?
        if let time, time.hour < 24 {
            let today = reference.date
            let now = reference.hour * 60 + reference.minute
            for d in 0..<8 {
                let day = today.adding(days: d)
                if !weekdays.isEmpty, !weekdays.contains(day.weekday) { continue }
                if d == 0, time.hour * 60 + time.minute < now { continue }
                start = reference.dateTime(day, hour: time.hour, minute: time.minute)
                break
            }
            part = nil
        }
        let names = weekdays.isEmpty ? nil : weekdays.map { Recurrence.weekdayNames[$0 - 1] }
        return (j, Recurrence(frequency: frequency, weekdays: names, dayPart: part, start: start))
    }

    /// A time of day at unit `i`: "at 8", "8 am", "6:30 pm", "a las 8", "um 8 Uhr", "20 h 30",
    /// "noon". Alone, a number is not a time: it needs a connector, minutes, a suffix such
    /// as "o'clock" or "Uhr", or "am"/"pm".
    private func timeOfDay(at i: Int, evening: Bool) -> (end: Int, hour: Int, minute: Int, strong: Bool)? {
        // Ruled out before the time words are taken: no number, no connector and no named hour
        // starts here (by their sketches).
        guard i < stream.count,
            numberAt[i] != nil || pack.dates.times.connectors.mayStart(with: normalizedUnits[i])
                || pack.dates.times.namedHours.mayStart(with: stream.keys[i])
        else { return nil }
        let times = pack.dates.times
        var j = i
        var evidence = false
        var strong = false
        if let connector = times.connectors.longestMatch(in: normalizedUnits, from: j) {
            j = connector.end
            evidence = true
        }
        guard j < stream.count else { return nil }
        var hour: Int
        var minute = 0
        if let named = times.namedHours.longestMatch(in: stream.keys, from: j) {
            hour = named.value
            j = named.end
            evidence = true
            strong = true
        } else {
            guard let n = numberAt[j], !n.isWeak || evidence, let h = n.intValue, (0...24).contains(h) else { return nil }
            hour = h
            j = n.end
            if j + 1 < stream.count, stream.keys[j] == ":" || times.hourSuffixes.contains(stream.keys[j]),
                let m = numberAt[j + 1], m.isDigits, let value = m.intValue, (0...59).contains(value), stream.token(j + 1).text.count == 2
            {
                minute = value
                j = m.end
                evidence = true
                strong = true
            } else if j < stream.count, times.hourSuffixes.contains(stream.keys[j]) {
                j += 1
                evidence = true
                strong = true
            }
        }
        if minute == 0, let half = times.halfPast.longestMatch(in: stream.keys, from: j) {
            minute = 30
            j = half.end
            evidence = true
            strong = true
        }
        if let meridiem = times.meridiem.longestMatch(in: stream.keys, from: j) {
            j = meridiem.end
            evidence = true
            strong = true
            if meridiem.value == "pm", hour < 12 { hour += 12 }
            if meridiem.value == "am", hour == 12 { hour = 0 }
        } else if evening, hour < 12 {
            hour += 12
        }
        guard evidence, hour <= 24 else { return nil }
        return (j, hour, minute, strong)
    }

    private func dayNumber(_ unit: Int) -> NumberMatch? {
        guard let n = numberAt[unit], let day = n.intValue, (1...31).contains(day) else { return nil }
        return n
    }

    private func yearAfter(_ unit: Int) -> (year: Int, end: Int)? {
        var k = unit
        if k < stream.count, pack.dates.connectors.contains(stream.keys[k]) || stream.keys[k] == "," { k += 1 }
        guard let n = numberAt[k], n.isDigits, let year = n.intValue, (1900...2200).contains(year) else { return nil }
        return (year, n.end)
    }

    /// "5 de marzo de 2026", "le 5 mars", "5. März", "March 5th, 2026", "21/11/2026", "2026-11-21".
    private func explicitDate(at i: Int) -> (Int, EntityValue)? {
        func date(_ year: Int, _ month: Int, _ day: Int, _ end: Int) -> (Int, EntityValue)? {
            let d = CivilDate(year: year, month: month, day: day)
            return d.isValid ? (end, .date(d.description)) : nil
        }
        // Day first.
        if let n = dayNumber(i) {
            var j = n.end
            if j < stream.count, pack.dates.ordinalSuffixes.contains(stream.keys[j]) { j += 1 }
            if j < stream.count, pack.dates.connectors.contains(stream.keys[j]) { j += 1 }
            if let month = pack.dates.months.longestMatch(in: stream.keys, from: j) {
                var end = month.end
                if end < stream.count, stream.keys[end] == ".", !month.value.standalone { end += 1 }
                let year = yearAfter(end)
                return date(year?.year ?? reference.year, month.value.month, n.intValue!, year?.end ?? end)
            }
        }
        // Month first.
        if let month = pack.dates.months.longestMatch(in: stream.keys, from: i) {
            var j = month.end
            if j < stream.count, stream.keys[j] == ".", !month.value.standalone { j += 1 }
            if let n = dayNumber(j), !n.isWeak {
                var end = n.end
                if end < stream.count, pack.dates.ordinalSuffixes.contains(stream.keys[end]) { end += 1 }
                let year = yearAfter(end)
                return date(year?.year ?? reference.year, month.value.month, n.intValue!, year?.end ?? end)
            }
        }
        return numericDate(at: i)
    }

    private func numericDate(at i: Int) -> (Int, EntityValue)? {
        guard stream.kind(i) == .number else { return nil }
        let token = stream.token(i)
        var parts: [Substring] = []
        var end = i + 1
        for separator in [".", "/", "-"] where token.text.contains(separator) {
            parts = token.text.split(separator: Character(separator), omittingEmptySubsequences: false)
            break
        }
        if parts.isEmpty {
            // "21/11/2026" (separators are tokens) or "2026-11-21" (hyphens are not units).
            var p = i
            var separator: String?
            parts = [Substring(token.text)]
            while parts.count < 3 {
                var next: Int
                var found: String
                if p + 2 < stream.count, ["/", "."].contains(stream.keys[p + 1]), stream.gap(p) == 0, stream.gap(p + 1) == 0 {
                    (next, found) = (p + 2, stream.keys[p + 1])
                } else if p + 1 < stream.count, stream.between(p) == "-" {
                    (next, found) = (p + 1, "-")
                } else {
                    return nil
                }
                guard separator == nil || separator == found, stream.token(next).kind == .number else { return nil }
                separator = found
                parts.append(Substring(stream.token(next).text))
                p = next
            }
            end = p + 1
        }
        // At most four digits a part ("03/3/33333333333333333333" once overflowed Int).
        guard parts.count == 3, parts.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == 3 else { return nil }
        var y = 0
        var m = 0
        var d = 0
        if parts[0].count == 4 {
            (y, m, d) = (numbers[0], numbers[1], numbers[2])
        } else {
            for (k, field) in pack.dates.numericOrder.enumerated() {
                switch field {
                case "d": d = numbers[k]
                case "M": m = numbers[k]
                default: y = numbers[k]
                }
            }
            if y < 100 { y += 2000 }
        }
        // A day above 12 written in the month's place can only be read one way.
        let date = CivilDate(year: y, month: m, day: d)
        let swapped = CivilDate(year: y, month: d, day: m)
        if date.isValid { return (end, .date(date.description)) }
        return m > 12 && swapped.isValid ? (end, .date(swapped.description)) : nil
    }

    /// The longest candidates win; among equal lengths the higher priority, then the earlier.
    private func select() -> [Entity] {
        let ordered = candidates.sorted {
            let (a, b) = ($0.end - $0.start, $1.end - $1.start)
            if a != b { return a > b }
            if $0.priority != $1.priority { return $0.priority > $1.priority }
            return $0.start < $1.start
        }
        var taken = [Bool](repeating: false, count: stream.count)
        var chosen: [Candidate] = []
        for candidate in ordered where !taken[candidate.start..<candidate.end].contains(true) {
            for k in candidate.start..<candidate.end { taken[k] = true }
            chosen.append(candidate)
        }
        return chosen.sorted { $0.start < $1.start }.map { candidate in
            let span = stream.span(candidate.start, candidate.end)
            return Entity(value: candidate.value, span: span, text: stream.text(span))
        }
    }
}
