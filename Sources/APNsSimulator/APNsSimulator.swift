import DequeModule
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL

/// An HTTP/2 server that behaves like APNs for Live Activity pushes: it checks them as APNs does
/// (`PushCheck`), answers with APNs's statuses and `{"reason"}` bodies, advertises a stream limit like
/// APNs, records what it accepted, and lets a test make chosen tokens fail or answer slowly, and its
/// streams and connections fail (`APNsSimulator+Faults.swift`). It also serves broadcast channels:
/// their management API and broadcasts (`APNsSimulator+Channels.swift`).
package final class APNsSimulator: Sendable {
    struct State {
        /// The newest accepted pushes, at most `configuration.retainedPushes`.
        var received = Deque<SimulatedPush>()
        /// Accepted pushes dropped from `received` to keep to that limit, since the last clear.
        var droppedPushes = 0
        var behaviors: [String: SimulatedBehavior] = [:]
        var rejections: [String: Int] = [:]
        var channels = SimulatedChannels()
        var broadcasts: [SimulatedBroadcast] = []
        /// By bundle id: how its channel management and broadcast requests are answered.
        var appBehaviors: [String: SimulatedBehavior] = [:]
        var faults = SimulatedFaults()
        /// How long after its request arrived every push is answered (`SimulatorConfiguration.latency`).
        var latency: TimeAmount
        /// What new connections advertise as SETTINGS_MAX_CONCURRENT_STREAMS.
        var maximumConcurrentStreams: Int
    }

    package let configuration: SimulatorConfiguration
    let state: NIOLockedValueBox<State>
    /// Open connections and their streams, to lower the stream limit on them (`setMaximumConcurrentStreams`).
    let streamLimits = StreamLimits()
    /// Provider tokens already checked, by their text: a signature is verified once per token, not per push.
    let verifiedTokens = NIOLockedValueBox(ProviderTokenVerdicts())
    private let group: MultiThreadedEventLoopGroup
    private let channel = NIOLockedValueBox<(any Channel)?>(nil)
    /// The simulator's clock; tests move it to make tokens look old.
    let clock: @Sendable () -> Date
    let logger: Logger

    package init(
        configuration: SimulatorConfiguration, clock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "livegate.apns-sim")
    ) {
        self.configuration = configuration
        self.state = NIOLockedValueBox(
            State(
                latency: .nanoseconds(Int64((configuration.latency / .nanoseconds(1)).rounded())),
                maximumConcurrentStreams: configuration.maximumConcurrentStreams))
        self.clock = clock
        self.logger = logger
        // A loop per core: one loop held the simulator to about 20,000 pushes/s (docs/benchmarks.md).
        self.group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
    }

    /// Starts listening; returns the port (useful with port 0).
    package func start() async throws -> Int {
        let sslContext = try configuration.tls?.makeContext()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture { try self.configure(connection: channel, tls: sslContext) }
            }
        let bound = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        channel.withLockedValue { $0 = bound }
        return bound.localAddress?.port ?? configuration.port
    }

    /// Sets up one accepted connection: TLS (or its refusal), HTTP/2, and a handler per stream.
    private func configure(connection channel: any Channel, tls sslContext: NIOSSLContext?) throws {
        let (number, refused, maximumStreams) = state.withLockedValue { state in
            state.faults.report.connections += 1
            return (state.faults.report.connections, state.faults.refusesTLS(now: .now), state.maximumConcurrentStreams)
        }
        try channel.pipeline.syncOperations.addHandler(SimulatedConnection(number: number))
        if refused {
            logger.info("TLS refused", metadata: ["connection": "\(number)"])
            try channel.pipeline.syncOperations.addHandler(TLSRefusalHandler(tls: sslContext != nil))
            return
        }
        if let sslContext {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
        }
        var connection = NIOHTTP2Handler.ConnectionConfiguration()
        connection.initialSettings = [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: maximumStreams),
            HTTP2Setting(parameter: .maxHeaderListSize, value: 1 << 16),
        ]
        // Below HTTP/2, whose streams' flushes it may hold until their answers are all written.
        let delayedAnswers = NIOLoopBound(DelayedAnswers(), eventLoop: channel.eventLoop)
        try channel.pipeline.syncOperations.addHandler(delayedAnswers.value)
        _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
            mode: .server, connectionConfiguration: connection, streamConfiguration: streamConfiguration,
            streamDelegate: StreamCounter(limits: streamLimits, number: number)
        ) { stream in
            stream.eventLoop.makeCompletedFuture {
                try stream.pipeline.syncOperations.addHandler(
                    SimulatorStreamHandler(simulator: self, delayedAnswers: delayedAnswers.value))
            }
        }
        try channel.pipeline.syncOperations.addHandler(SettingsAcknowledgementWatcher(limits: streamLimits, number: number))
        streamLimits.register(number, channel: channel, limit: maximumStreams)
    }

    /// libcurl 7.88, the HTTP/2 client of Debian 12, sends a RST_STREAM for every stream once it has read
    /// an answer without a body (a libcurl bug, fixed in 8.0.0), on a stream already closed, which RFC
    /// 9113 §5.1 has the server ignore. The gateway leaves those unsent (`CurlStreamReset`), but another
    /// sender on that libcurl does not, and NIO's default limit (200 RST_STREAMs in 30 s) would take them
    /// for a rapid-reset attack: after 200 pushes it drops the connection with a GOAWAY (ENHANCE_YOUR_CALM)
    /// whose last stream id is 0, which tells the client that the pushes the simulator had already
    /// accepted and recorded were never processed. APNs is not known to drop such a client: by default the
    /// simulator allows 20,000 resets a second on a connection (`SimulatorConfiguration.streamResetLimit`),
    /// far more than the pushes one carries in a second.
    var streamConfiguration: NIOHTTP2Handler.StreamConfiguration {
        var stream = NIOHTTP2Handler.StreamConfiguration()
        stream.streamResetFrameRateLimit.maximumCount = configuration.streamResetLimit.count
        stream.streamResetFrameRateLimit.windowLength = TimeAmount(configuration.streamResetLimit.window)
        return stream
    }

    package func stop() async {
        let bound = channel.withLockedValue { channel in
            defer { channel = nil }
            return channel
        }
        try? await bound?.close()
        try? await group.shutdownGracefully()
    }

    /// Every push answered 200, in arrival order: the newest `configuration.retainedPushes` of them.
    package var received: [SimulatedPush] { state.withLockedValue { Array($0.received) } }

    /// Accepted pushes no longer in `received`, dropped (oldest first) to keep to its limit.
    package var droppedPushes: Int { state.withLockedValue { $0.droppedPushes } }

    /// How many pushes were refused, by reason.
    package var rejections: [String: Int] { state.withLockedValue { $0.rejections } }

    /// Forgets the pushes received so far.
    package func clearReceived() {
        state.withLockedValue { state in
            state.received.removeAll()
            state.droppedPushes = 0
        }
    }

    package func setBehavior(_ behavior: SimulatedBehavior?, for deviceToken: String) {
        state.withLockedValue { $0.behaviors[deviceToken.lowercased()] = behavior }
    }

    // MARK: - Answering

    struct Answer {
        var status: Int
        var body: [UInt8]
        /// Nil for the control API's answers, which are not APNs's.
        var apnsID: String?
        var delay: TimeAmount?
        /// Other headers of the answer (`apns-request-id`, `apns-channel-id`).
        var headers: [(name: String, value: String)] = []
        /// What happens instead of the answer, or to it (`SimulatedFault`).
        var fault: SimulatedFault?
    }

    /// The answer to a request that arrived on stream `stream` of connection `connection`; `newAPNsID`
    /// names a push that came without an `apns-id`.
    func answer(
        method: String, path: String, headers: [String: String], body: [UInt8], connection: Int, stream: Int,
        newAPNsID: () -> String
    ) -> Answer {
        if let route = BroadcastRoute(path: path) {
            return answer(route, method: method, headers: headers, body: body)
        }
        let apnsID = headers["apns-id"] ?? newAPNsID()
        let now = clock()
        let verify: (String?) -> String? = { [configuration, verifiedTokens] authorization in
            verifiedTokens.withLockedValue { $0.problem(with: authorization, keys: configuration.providerKeys, now: now) }
        }
        switch PushCheck.check(method: method, path: path, headers: headers, body: body, now: now, providerToken: verify) {
        case .rejected(let status, let reason):
            logger.info("push refused", metadata: ["status": "\(status)", "reason": "\(reason)", "path": "\(path.prefix(120))"])
            return reject(status: status, reason: reason, apnsID: apnsID)
        case .accepted(let token):
            return state.withLockedValue { state -> Answer in
                let fault = state.faults.take(forPushTo: token, connection: connection)
                let (failure, delay) =
                    fault == nil
                    ? SimulatedBehavior.consume(&state.behaviors, key: token, rejections: &state.rejections, now: now)
                    : (nil, nil)
                if let failure {
                    return Answer(status: failure.status, body: failure.body, apnsID: apnsID, headers: failure.headers)
                }
                if fault?.accepts ?? true {
                    state.received.append(
                        SimulatedPush(
                            deviceToken: token, headers: headers, payload: body, receivedAt: now, connection: connection,
                            stream: stream, fault: fault))
                    if state.received.count > configuration.retainedPushes {
                        state.received.removeFirst()
                        state.droppedPushes += 1
                        if state.droppedPushes == 1 {
                            logger.info("oldest recorded pushes dropped", metadata: ["retained_pushes": "\(configuration.retainedPushes)"])
                        }
                    }
                }
                // Per push: debug, as a library logs (at info it cost the simulator its throughput).
                logger.debug(
                    fault == nil ? "push accepted" : "push met a fault",
                    metadata: [
                        "token": "…\(token.suffix(8))", "apns_id": "\(apnsID)", "bytes": "\(body.count)",
                        "connection": "\(connection)", "stream": "\(stream)", "fault": "\(fault.map { "\($0)" } ?? "none")",
                    ])
                return Answer(status: 200, body: [], apnsID: apnsID, delay: delay, fault: fault)
            }
        }
    }

    private func reject(status: Int, reason: String, apnsID: String) -> Answer {
        state.withLockedValue { $0.rejections[reason, default: 0] += 1 }
        return Answer(status: status, body: Self.reasonBody(reason), apnsID: apnsID)
    }

    static func reasonBody(_ reason: String) -> [UInt8] {
        Array(#"{"reason":"\#(reason)"}"#.utf8)
    }

    /// APNs adds to a 410 the time (epoch milliseconds) it learned the token was no longer valid.
    static func reasonBody(_ reason: String, status: Int, now: Date) -> [UInt8] {
        guard status == 410 else { return reasonBody(reason) }
        return Array(#"{"reason":"\#(reason)","timestamp":\#(Int64(now.timeIntervalSince1970 * 1000))}"#.utf8)
    }
}
