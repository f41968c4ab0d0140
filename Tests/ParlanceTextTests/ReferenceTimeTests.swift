import Testing

@testable import ParlanceText

@Suite struct ReferenceTimeTests {
    @Test func parsesOffsetsAndKeepsThem() throws {
        let t = try ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")
        #expect((t.year, t.month, t.day, t.hour, t.utcOffsetSeconds) == (2026, 11, 21, 10, 3600))
        #expect(t.description == "2026-11-21T10:00:00+01:00")
        #expect(try ReferenceTime(iso8601: "2026-11-21T09:00:00Z").utcOffsetSeconds == 0)
        #expect(try ReferenceTime(iso8601: "2026-11-21T09:00:00.250-05:30").utcOffsetSeconds == -(5 * 3600 + 30 * 60))
        #expect(try ReferenceTime(iso8601: "2026-11-21").description == "2026-11-21T00:00:00+00:00")
    }

    @Test(arguments: [
        "", "yesterday", "2026-11-21T10:00", "2026-13-01", "2026-02-30", "2026-11-21T25:00:00Z", "2026-11-21T10:00:00+1", "2026/11/21"
    ])
    func refusesWhatIsNotISO8601(text: String) {
        #expect(throws: ReferenceTimeError.self) { try ReferenceTime(iso8601: text) }
    }

    @Test func civilDateArithmetic() {
        let saturday = CivilDate(year: 2026, month: 11, day: 21)
        #expect(saturday.weekday == 7)
        #expect(saturday.monday == CivilDate(year: 2026, month: 11, day: 16))
        #expect(CivilDate(days: saturday.days) == saturday)
        #expect(CivilDate(year: 1970, month: 1, day: 1).days == 0)
        #expect(CivilDate(year: 2024, month: 2, day: 28).adding(days: 1) == CivilDate(year: 2024, month: 2, day: 29))
        #expect(CivilDate(year: 2026, month: 1, day: 15).firstOfMonth(adding: -1) == CivilDate(year: 2025, month: 12, day: 1))
        #expect(CivilDate(year: 2026, month: 2, day: 1).lastOfMonth.day == 28)
        #expect(
            ReferenceTime(year: 2026, month: 11, day: 21, utcOffsetSeconds: 3600).dateTime(saturday, hour: 24)
                == "2026-11-22T00:00:00+01:00")
    }
}
