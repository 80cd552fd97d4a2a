import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Testing

@Suite("Date.iso8601: ISO8601DateFormatter's text without a formatter")
struct DateISO8601Tests {
    /// Fractions included: the formatter rounds to the millisecond, then drops the fraction.
    @Test(arguments: [0, 1234.4, 1234.5, 1234.9994, 1234.9995, -0.5, -1.2, -0.0006, 1_763_798_400.999999, 951_825_599.25])
    func matchesFoundationsFormatter(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(date.iso8601 == ISO8601DateFormatter().string(from: date))
    }

    @Test func wholeSecondsInUTC() {
        #expect(Date(timeIntervalSince1970: 1_795_465_415.9994).iso8601 == "2026-11-23T20:23:35Z")
        #expect(Date(timeIntervalSince1970: 1_795_465_415.9995).iso8601 == "2026-11-23T20:23:36Z")
    }
}
