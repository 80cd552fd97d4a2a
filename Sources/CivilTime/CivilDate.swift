/// A day of the proleptic Gregorian calendar: `month` 1–12, `day` 1–31.
public struct CivilDate: Sendable, Hashable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public var description: String { "\(year)-\(month)-\(day)" }
}
