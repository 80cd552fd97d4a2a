import APNsClient
import Testing

/// When a lane looks for transfers that were not sent within the connect timeout, and which it finds:
/// driven with plain values, without libcurl.
@Suite("A lane's connect timeouts, without sockets")
struct ConnectTimeoutsTests {
    /// A started transfer: when it started, and whether it has gone out.
    struct Started {
        let name: String
        let since: ContinuousClock.Instant
        var sent = false
    }

    static let start = ContinuousClock.now
    static func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    static func late(_ timeouts: inout ConnectTimeouts, _ started: [Started], at now: Int) -> [String] {
        timeouts.check(started, now: at(now)) { $0.sent ? nil : $0.since }.map(\.name)
    }

    @Test func nothingIsDueUntilATransferStarts() {
        let timeouts = ConnectTimeouts(timeout: .milliseconds(100))
        #expect(timeouts.nextCheck == nil)
        #expect(!timeouts.isDue(at: Self.at(1_000_000)))
    }

    @Test func aCheckIsDueOneTimeoutAfterTheFirstStart() {
        var timeouts = ConnectTimeouts(timeout: .milliseconds(100))
        timeouts.started(at: Self.at(0))
        timeouts.started(at: Self.at(40))
        #expect(timeouts.nextCheck == Self.at(100), "the first start's deadline; a later start does not move it")
        #expect(!timeouts.isDue(at: Self.at(99)))
        #expect(timeouts.isDue(at: Self.at(100)))
    }

    @Test func findsOnlyTransfersUnsentPastTheirDeadline() {
        var timeouts = ConnectTimeouts(timeout: .milliseconds(100))
        let started = [
            Started(name: "old, sent", since: Self.at(0), sent: true),
            Started(name: "old", since: Self.at(0)),
            Started(name: "at its deadline", since: Self.at(20)),
            Started(name: "young", since: Self.at(70)),
            Started(name: "younger", since: Self.at(90)),
        ]
        for transfer in started { timeouts.started(at: transfer.since) }
        #expect(Self.late(&timeouts, started, at: 120) == ["old", "at its deadline"])
        #expect(timeouts.nextCheck == Self.at(170), "the earliest deadline left")
    }

    @Test func whenAllWereSentNothingIsDueUntilTheNextStart() {
        var timeouts = ConnectTimeouts(timeout: .milliseconds(100))
        var started = [Started(name: "one", since: Self.at(0)), Started(name: "two", since: Self.at(10))]
        timeouts.started(at: Self.at(0))
        started[0].sent = true
        started[1].sent = true
        #expect(Self.late(&timeouts, started, at: 100).isEmpty)
        #expect(timeouts.nextCheck == nil)
        timeouts.started(at: Self.at(500))
        #expect(timeouts.nextCheck == Self.at(600))
    }

    /// A transfer started after a check has a deadline later than any the check left: the next check,
    /// set by the check, comes no later than it.
    @Test func noDeadlineIsMissed() {
        var timeouts = ConnectTimeouts(timeout: .milliseconds(100))
        var started = [Started(name: "waiting", since: Self.at(0))]
        timeouts.started(at: Self.at(0))
        #expect(Self.late(&timeouts, started, at: 100) == ["waiting"])
        started = [Started(name: "next", since: Self.at(130))]
        timeouts.started(at: Self.at(130))
        #expect(timeouts.nextCheck == Self.at(230))
        #expect(Self.late(&timeouts, started, at: 229).isEmpty)
        #expect(Self.late(&timeouts, started, at: 230) == ["next"])
    }
}
