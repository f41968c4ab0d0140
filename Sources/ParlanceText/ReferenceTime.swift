import Foundation

/// The moment relative dates are resolved against ("yesterday" is the day before it), with
/// the UTC offset the caller gave, which the resolved dates keep.
public struct ReferenceTime: Sendable, Hashable, CustomStringConvertible {
    /// The year of the local date.
    public let year: Int
    /// The month of the local date, 1–12.
    public let month: Int
    /// The day of the month, 1–31.
    public let day: Int
    /// The hour of local time, 0–23.
    public let hour: Int
    /// The minute, 0–59.
    public let minute: Int
    /// The second, 0–60 (60 for a leap second).
    public let second: Int
    /// Seconds east of UTC.
    public let utcOffsetSeconds: Int

    /// Creates a reference time from local date and time fields and the local offset from UTC, in seconds (3600 for
    /// +01:00). The fields are not checked.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, utcOffsetSeconds: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Parses ISO 8601: "2026-11-21T10:00:00+01:00", "2026-11-21T09:00:00Z",
    /// "2026-11-21T10:00:00.5+01:00" or a date alone, "2026-11-21" (midnight UTC).
    public init(iso8601 text: String) throws(ReferenceTimeError) {
        let s = Array(text.utf8)
        var i = 0
        func number(_ digits: Int) throws(ReferenceTimeError) -> Int {
            guard i + digits <= s.count else { throw ReferenceTimeError(text: text) }
            var value = 0
            for _ in 0..<digits {
                let c = s[i]
                guard c >= 48 && c <= 57 else { throw ReferenceTimeError(text: text) }
                value = value * 10 + Int(c - 48)
                i += 1
            }
            return value
        }
        func expect(_ c: UInt8) throws(ReferenceTimeError) {
            guard i < s.count, s[i] == c else { throw ReferenceTimeError(text: text) }
            i += 1
        }
        let year = try number(4)
        try expect(UInt8(ascii: "-"))
        let month = try number(2)
        try expect(UInt8(ascii: "-"))
        let day = try number(2)
        var hour = 0
        var minute = 0
        var second = 0
        var offset = 0
        if i < s.count {
            guard s[i] == UInt8(ascii: "T") || s[i] == UInt8(ascii: " ") else { throw ReferenceTimeError(text: text) }
            i += 1
            hour = try number(2)
            try expect(UInt8(ascii: ":"))
            minute = try number(2)
            if i < s.count, s[i] == UInt8(ascii: ":") {
                i += 1
                second = try number(2)
                if i < s.count, s[i] == UInt8(ascii: ".") || s[i] == UInt8(ascii: ",") {
                    i += 1
                    let fractionStart = i
                    while i < s.count, s[i] >= 48 && s[i] <= 57 { i += 1 }
                    guard i > fractionStart else { throw ReferenceTimeError(text: text) }
                }
            }
            guard i < s.count else { throw ReferenceTimeError(text: text) }  // an offset is required with a time
            if s[i] == UInt8(ascii: "Z") {
                i += 1
            } else if s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
                let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                let oh = try number(2)
                if i < s.count, s[i] == UInt8(ascii: ":") { i += 1 }
                let om = try number(2)
                guard oh <= 18, om < 60 else { throw ReferenceTimeError(text: text) }
                offset = sign * (oh * 3600 + om * 60)
            } else {
                throw ReferenceTimeError(text: text)
            }
        }
        guard i == s.count, (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { throw ReferenceTimeError(text: text) }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, utcOffsetSeconds: offset)
    }

    /// Now, in this machine's time zone.
    public static func now() -> ReferenceTime {
        let date = Date()
        let offset = TimeZone.current.secondsFromGMT(for: date)
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset
        let days = Int((Double(local) / 86400).rounded(.down))
        let civil = CivilDate(days: days)
        let secondsOfDay = local - days * 86400
        return ReferenceTime(
            year: civil.year, month: civil.month, day: civil.day, hour: secondsOfDay / 3600,
            minute: secondsOfDay % 3600 / 60, second: secondsOfDay % 60, utcOffsetSeconds: offset)
    }

    /// The local calendar date.
    public var date: CivilDate { CivilDate(year: year, month: month, day: day) }

    /// "+01:00".
    public var offsetString: String {
        let sign = utcOffsetSeconds < 0 ? "-" : "+"
        let magnitude = abs(utcOffsetSeconds)
        return sign + pad(magnitude / 3600) + ":" + pad(magnitude % 3600 / 60)
    }

    /// "2026-11-21T10:00:00+01:00".
    public var description: String {
        "\(date)T\(pad(hour)):\(pad(minute)):\(pad(second))\(offsetString)"
    }

    /// An ISO 8601 date-time on `date` at `hour` in the reference's offset (hour 24 is the
    /// next day's midnight).
    func dateTime(_ date: CivilDate, hour: Int, minute: Int = 0) -> String {
        let (d, h) = hour >= 24 ? (date.adding(days: 1), hour - 24) : (date, hour)
        return "\(d)T\(pad(h)):\(pad(minute)):00\(offsetString)"
    }
}

/// A reference time that is not ISO 8601.
public struct ReferenceTimeError: Error, Sendable, CustomStringConvertible {
    /// The text that could not be read.
    public let text: String
    /// The message, with an example of the expected form.
    public var description: String {
        "invalid reference time '\(text)': expected ISO 8601 such as 2026-11-21T10:00:00+01:00"
    }
}

@inline(__always) func pad(_ n: Int, _ width: Int = 2) -> String {
    let s = String(n)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// A proleptic Gregorian calendar date, with day arithmetic (days since 1970-01-01).
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year; years before 1 are astronomical (0 is 1 BC).
    public let year: Int
    /// The month, 1–12.
    public let month: Int
    /// The day of the month, from 1.
    public let day: Int

    /// Creates a date from its fields, unchecked (see `isValid`).
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// From days since 1970-01-01 (H. Hinnant's civil_from_days).
    public init(days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// Days since 1970-01-01.
    public var days: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// 1 = Sunday … 7 = Saturday.
    public var weekday: Int { ((days % 7 + 7) % 7 + 4) % 7 + 1 }

    /// The date `n` days later, or earlier for a negative `n`.
    public func adding(days n: Int) -> CivilDate { CivilDate(days: days + n) }

    /// The first day of the month `n` months away.
    public func firstOfMonth(adding n: Int) -> CivilDate {
        let index = year * 12 + (month - 1) + n
        return CivilDate(year: index / 12, month: index % 12 + 1, day: 1)
    }

    /// The last day of this date's month.
    public var lastOfMonth: CivilDate {
        CivilDate(year: year, month: month, day: CivilDate.daysIn(month: month, year: year))
    }

    /// The Monday of this date's week (weeks run Monday to Sunday).
    public var monday: CivilDate { adding(days: -((weekday + 5) % 7)) }

    /// The number of days in a month (1–12) of a year, with Gregorian leap years.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// From "2026-11-21".
    public init?(iso text: String) {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        self.init(year: parts[0], month: parts[1], day: parts[2])
        guard isValid else { return nil }
    }

    /// Whether the month is 1–12 and the month has the day.
    public var isValid: Bool { (1...12).contains(month) && (1...CivilDate.daysIn(month: month, year: year)).contains(day) }

    /// "2026-11-21".
    public var description: String { "\(pad(year, 4))-\(pad(month))-\(pad(day))" }

    /// Whether `a` is the earlier date.
    public static func < (a: CivilDate, b: CivilDate) -> Bool { a.days < b.days }
}
