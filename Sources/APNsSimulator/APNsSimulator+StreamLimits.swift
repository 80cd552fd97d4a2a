import APNsCore
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The settings a test or script changes while the simulator runs: latency and the stream limit.
extension APNsSimulator {
    /// How long after it arrived every request is answered.
    package var latency: TimeAmount { state.withLockedValue { $0.latency } }

    package func setLatency(_ latency: TimeAmount) {
        state.withLockedValue { $0.latency = latency }
        logger.info("latency set", metadata: ["latency_ms": "\(latency.nanoseconds / 1_000_000)"])
    }

    /// What new connections advertise as SETTINGS_MAX_CONCURRENT_STREAMS.
    package var maximumConcurrentStreams: Int { state.withLockedValue { $0.maximumConcurrentStreams } }

    /// New connections advertise `limit`; open ones get a SETTINGS frame saying so. Until a client
    /// acknowledges the frame it may still use the old limit (RFC 9113 §6.5.3).
    package func setMaximumConcurrentStreams(_ limit: Int) {
        state.withLockedValue { $0.maximumConcurrentStreams = limit }
        streamLimits.announce(limit)
        logger.info("maximum concurrent streams set", metadata: ["max_streams": "\(limit)"])
    }

    /// What a connection did with the stream limit: `highWater` is the most streams it had open at once
    /// since the client acknowledged the limit now in force (`acknowledgedLimit`).
    package struct ConnectionStreams: Sendable, Equatable {
        package let connection: Int
        package let isOpen: Bool
        package let openStreams: Int
        package let acknowledgedLimit: Int?
        package let highWater: Int
        package let mostEver: Int
    }

    package var connectionStreams: [ConnectionStreams] {
        streamLimits.all.map {
            ConnectionStreams(
                connection: $0.number, isOpen: $0.channel != nil, openStreams: $0.openStreams,
                acknowledgedLimit: $0.acknowledged, highWater: $0.highWater, mostEver: $0.mostEver)
        }
    }

    var settingsJSON: JSONValue {
        .object([
            "latency_ms": .number(String(latency.nanoseconds / 1_000_000)),
            "max_streams": .number(String(maximumConcurrentStreams)),
            "retained_pushes": .number(String(configuration.retainedPushes)),
            "dropped_pushes": .number(String(droppedPushes)),
            "connections": .array(
                connectionStreams.map { connection in
                    .object([
                        "connection": .number(String(connection.connection)), "open": .bool(connection.isOpen),
                        "open_streams": .number(String(connection.openStreams)),
                        "acknowledged_max_streams": connection.acknowledgedLimit.map { .number(String($0)) } ?? .null,
                        "high_water": .number(String(connection.highWater)),
                        "most_streams_ever": .number(String(connection.mostEver)),
                    ])
                }),
        ])
    }
}
