import CivilTime
import Foundation

extension Date {
    /// `2026-11-23T20:23:35Z`: UTC, whole seconds, the text Foundation's `ISO8601DateFormatter` gives by
    /// default (it rounds to the millisecond, then drops the fraction), without making a formatter.
    package var iso8601: String {
        let milliseconds = (timeIntervalSince1970 * 1000).rounded()
        return UTCTimestamp.iso8601(Int64((milliseconds / 1000).rounded(.down)))
    }
}
