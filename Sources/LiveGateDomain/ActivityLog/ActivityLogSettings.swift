/// How long the message activity log keeps entries (60 hours by default).
package struct ActivityLogSettings: Sendable {
    package var retention: Duration

    package init(retention: Duration = .seconds(60 * 3600)) {
        self.retention = retention
    }
}
