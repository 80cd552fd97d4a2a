import CivilTime
import Testing

@Suite("Civil calendar")
struct CivilCalendarTests {
    @Test(
        arguments: [
            (1970, 1, 1, 0),
            (1969, 12, 31, -1),
            (2000, 2, 29, 11_016),
            (2000, 3, 1, 11_017),
            (2100, 2, 28, 47_540),
            (2100, 3, 1, 47_541),
            (2400, 2, 29, 157_113),
            (0, 3, 1, -719_468),
            (-1, 12, 31, -719_529),
            (9999, 12, 31, 2_932_896),
        ] as [(Int, Int, Int, Int)])
    func knownDays(year: Int, month: Int, day: Int, days: Int) {
        #expect(CivilCalendar.daysSinceEpoch(year: year, month: month, day: day) == days)
        #expect(CivilCalendar.date(daysSinceEpoch: days) == CivilDate(year: year, month: month, day: day))
    }

    @Test func leapYearsFollowTheGregorianRule() {
        for year in [2000, 2400, 2024, 1996, 0, -4, -400] { #expect(CivilCalendar.isLeapYear(year), "\(year)") }
        for year in [1900, 2100, 2200, 2023, 1, -1, -100] { #expect(!CivilCalendar.isLeapYear(year), "\(year)") }
        #expect(CivilCalendar.daysInMonth(2, year: 2000) == 29)
        #expect(CivilCalendar.daysInMonth(2, year: 2100) == 28)
        #expect(CivilCalendar.daysInMonth(2, year: 2400) == 29)
        #expect((1...12).map { CivilCalendar.daysInMonth($0, year: 2023) } == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
    }

    /// Walks day by day from 401 BC to AD 2801, two full 400-year eras either side of 1970, counting
    /// the calendar forward by hand: every day number maps to the next date, and back.
    @Test func everyDayRoundTripsAndFollowsTheDayBefore() {
        var expected = CivilDate(year: -400, month: 1, day: 1)
        let first = CivilCalendar.daysSinceEpoch(expected)
        let last = CivilCalendar.daysSinceEpoch(year: 2800, month: 12, day: 31)
        #expect(last - first + 1 == 8 * 146_097 + 366)  // eight 400-year eras, then the leap year 2800
        var mismatches = 0
        for days in first...last {
            let date = CivilCalendar.date(daysSinceEpoch: days)
            if date != expected || CivilCalendar.daysSinceEpoch(date) != days {
                mismatches += 1
                if mismatches <= 5 { Issue.record("day \(days): \(date), expected \(expected)") }
            }
            expected = Self.dayAfter(expected)
        }
        #expect(mismatches == 0)
        #expect(expected == CivilDate(year: 2801, month: 1, day: 1))
    }

    static func dayAfter(_ date: CivilDate) -> CivilDate {
        var next = date
        next.day += 1
        if next.day > CivilCalendar.daysInMonth(next.month, year: next.year) {
            next.day = 1
            next.month += 1
            if next.month > 12 {
                next.month = 1
                next.year += 1
            }
        }
        return next
    }
}
