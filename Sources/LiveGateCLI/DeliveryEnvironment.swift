import APNsClient
import ArgumentParser
import Foundation
import LiveGate
import Logging

/// The delivery settings `livegate serve` reads from the environment (docs/configuration.md).
enum DeliveryEnvironment {
    /// `transport`: the APNs connections, whose streams make the default in-flight limit.
    static func settings(transport: HTTP2ClientConfiguration) throws -> DeliverySettings {
        var settings = DeliverySettings()
        settings.pageSize = try Settings.integer("LIVEGATE_DELIVERY_PAGE_SIZE", default: settings.pageSize, range: 1...10_000)
        // At real network latency what limits delivery is how many pushes wait for APNs at once: by
        // default as many as the connections' streams can carry.
        settings.maximumPushesInFlight = try Settings.integer(
            "LIVEGATE_DELIVERY_MAX_IN_FLIGHT", default: min(100_000, transport.maximumTransfersInProgress), range: 1...100_000)
        settings.concurrentDispatches = try Settings.integer(
            "LIVEGATE_DELIVERY_CONCURRENT_DISPATCHES", default: settings.concurrentDispatches, range: 1...1_000)
        settings.lease = try Settings.duration("LIVEGATE_DELIVERY_LEASE_SECONDS", default: 60, range: 2...3600, unit: .seconds(1))
        settings.pollInterval = try Settings.duration(
            "LIVEGATE_DELIVERY_POLL_MILLISECONDS", default: 250, range: 10...60_000, unit: .milliseconds(1))
        settings.pushRetry.maximumAttempts = try Settings.integer(
            "LIVEGATE_DELIVERY_MAX_ATTEMPTS", default: settings.pushRetry.maximumAttempts, range: 1...20)
        return settings
    }

    static func transport() throws -> HTTP2ClientConfiguration {
        var transport = HTTP2ClientConfiguration()
        transport.trustedCAFile = Settings.environment["LIVEGATE_APNS_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        transport.responseTimeout = try Settings.duration("LIVEGATE_APNS_TIMEOUT_SECONDS", default: 30, range: 1...600, unit: .seconds(1))
        transport.maximumConnectionsPerHost = try Settings.integer(
            "LIVEGATE_APNS_CONNECTIONS", default: transport.maximumConnectionsPerHost, range: 1...64)
        transport.maximumStreamsPerConnection = try Settings.integer(
            "LIVEGATE_APNS_MAX_STREAMS", default: transport.maximumStreamsPerConnection, range: 1...10_000)
        // One libcurl thread per core by default: one thread tops out near 20,000 pushes a second.
        transport.threads = try Settings.integer(
            "LIVEGATE_APNS_THREADS", default: min(transport.maximumConnectionsPerHost, ProcessInfo.processInfo.activeProcessorCount),
            range: 1...64)
        return transport
    }

    /// What `serve` logs as it starts: the APNs connection settings in force, derived ones included.
    static func metadata(transport: HTTP2ClientConfiguration, delivery: DeliverySettings) -> Logger.Metadata {
        [
            "connections": "\(transport.maximumConnectionsPerHost)", "max_streams": "\(transport.maximumStreamsPerConnection)",
            "threads": "\(transport.connectionsPerLane.count)", "max_in_flight": "\(delivery.maximumPushesInFlight)",
            "timeout_seconds": "\(transport.responseTimeout.components.seconds)",
        ]
    }

    static func activityLog() throws -> ActivityLogSettings {
        ActivityLogSettings(
            retention: try Settings.duration(
                "LIVEGATE_ACTIVITY_LOG_RETENTION_HOURS", default: 60, range: 1...8760, unit: .seconds(3600)))
    }
}
