/// How long the message activity log keeps entries (60 hours by default).
public struct ActivityLogSettings: Sendable {
    public var retention: Duration

    public init(retention: Duration = .seconds(60 * 3600)) {
        self.retention = retention
    }
}
