import Foundation

extension Date {
    /// The wall-clock instant `duration` later: `Date` stays the type of instants, `Duration` of spans.
    package static func + (date: Date, duration: Duration) -> Date {
        date.addingTimeInterval(duration.inSeconds)
    }
}
