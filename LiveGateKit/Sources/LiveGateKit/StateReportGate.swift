import Foundation

/// Holds a followed activity's state reports until its first update token is queued, so the outbox (which
/// sends in order) gives the gateway the token before the state that confirms a start. Opened by the first
/// token, by the end of the activity's tokens or states, or by the wait running out; then what it held
/// goes out in order, each with the time it happened.
@available(iOS 16.0, macOS 13.0, *)
actor StateReportGate {
    private let report: @Sendable (LiveActivityState, Date) async -> Void
    private var held: [(state: LiveActivityState, date: Date)] = []
    private var isOpen: Bool
    /// True while the held reports are queued: a report arriving meanwhile joins them, behind.
    private var releasing = false

    init(open: Bool, report: @escaping @Sendable (LiveActivityState, Date) async -> Void) {
        self.isOpen = open
        self.report = report
    }

    func state(_ state: LiveActivityState, at date: Date) async {
        if isOpen && !releasing {
            await report(state, date)
        } else {
            held.append((state, date))
        }
    }

    func open() async {
        guard !isOpen else { return }
        isOpen = true
        releasing = true
        while !held.isEmpty {
            let next = held.removeFirst()
            await report(next.state, next.date)
        }
        releasing = false
    }
}
