import CurlPollCache
import CurlStreamReset
import Synchronization

/// An HTTP/2 client on libcurl multi handles: long-lived connections, many concurrent streams on each
/// (`CURLPIPE_MULTIPLEX`, `CURLOPT_PIPEWAIT`), another connection only when streams run out.
///
/// That holds for `https://` (h2 by ALPN), which is what APNs speaks. For `http://` (h2c with prior
/// knowledge, local simulators only) libcurl 7.88 cannot send a second request on a connection it
/// reuses ("Error in the HTTP2 framing layer"), so those requests each get a connection of their own.
///
/// A request goes out at most once: libcurl would send one again by itself after some connection
/// failures, and this client stops it (`curlPrereqCallback`) and reports `lostAfterSending` instead.
/// libcurl 7.88 also sends a RST_STREAM (STREAM_CLOSED) on every stream whose answer has no body, such
/// as APNs's 200, after the stream has closed: `http2_handle_stream_close()` clears `stream->closed`,
/// so `http2_data_done()` takes the stream for unfinished and resets it. No option avoids it; libcurl
/// 8.0.0 fixed it (commit 544a7f804d, curl#10715). A server that counts resets against rapid-reset
/// attacks can drop a busy connection for it (NIO does after 200), and each costs a TLS record and a
/// `send` on both ends, about a third of what a push writes. So `CurlStreamReset` takes libcurl's call to
/// nghttp2 and leaves unsent the reset of a stream nghttp2 has already closed; a transfer given up before
/// its answer still resets its stream.
///
/// One libcurl thread spends about 50 µs of CPU per push (bench/delivery `rtt`), so one thread caps a
/// client near 20,000 requests a second whatever the machine has. The connections are therefore spread
/// over `configuration.threads` lanes (`CurlLane`), each a multi handle on a thread of its own with its
/// share of the connections; a request or batch goes to the lane with the fewest requests outstanding.
public final class CurlHTTP2Client: Sendable {
    public let configuration: HTTP2ClientConfiguration
    private let lanes: [CurlLane]
    /// Requests handed to each lane and not yet answered.
    private let outstanding: Mutex<[Int]>

    public init(configuration: HTTP2ClientConfiguration = .init(), name: String = "livegate-h2") {
        self.configuration = configuration
        let shares = configuration.connectionsPerLane
        lanes = shares.enumerated().map { index, connections in
            var share = configuration
            share.maximumConnectionsPerHost = connections
            return CurlLane(configuration: share, name: shares.count == 1 ? name : "\(name)-\(index + 1)")
        }
        outstanding = Mutex(Array(repeating: 0, count: shares.count))
    }

    /// Whether this process leaves unsent libcurl's resets of streams the server already closed: the
    /// filter works by symbol name, so a build linked differently sends them all.
    public static var leavesClosedStreamResetsUnsent: Bool { lg_stream_reset_filter_active() }

    /// How many resets of closed streams this process has left unsent.
    public static var closedStreamResetsLeftUnsent: UInt64 { lg_stream_resets_left_unsent() }

    /// Whether this process answers libcurl's repeated checks of a socket within one pass from the pass's
    /// first answer (`CurlPollCache`): it works by symbol name, so a build linked differently makes each
    /// check a system call.
    public static var answersSocketChecksWithinAPass: Bool { lg_poll_cache_active() }

    /// How many of libcurl's socket checks this process has answered without a system call.
    public static var socketChecksAnsweredWithinAPass: UInt64 { lg_polls_answered_from_cache() }

    /// Sends one request and waits for its answer (any HTTP status), or throws `HTTP2TransportError`.
    public func send(_ request: HTTP2Request) async throws -> HTTP2Response {
        let lane = takeLane(for: 1)
        defer { release(lane, count: 1) }
        return try await withCheckedThrowingContinuation { continuation in
            lanes[lane].hand([CurlTransfer(request: request, completion: .single(continuation))])
        }
    }

    /// Sends the requests concurrently and returns their answers in the same order, once all are in:
    /// one wake-up of the caller for the whole batch, which goes to one lane.
    public func send(batch requests: [HTTP2Request]) async -> [Result<HTTP2Response, HTTP2TransportError>] {
        await send(batchOf: requests.count) { requests[$0] }
    }

    /// As `send(batch:)`, for requests `0..<count`, each made by `request` straight into its transfer:
    /// no array of requests is built, copied into the transfers and freed again.
    public func send(
        batchOf count: Int, _ request: (Int) -> HTTP2Request
    ) async -> [Result<HTTP2Response, HTTP2TransportError>] {
        guard count > 0 else { return [] }
        let lane = takeLane(for: count)
        defer { release(lane, count: count) }
        let answers = await withCheckedContinuation { continuation in
            let batch = TransferBatch(count: count, continuation: continuation)
            let transfers = (0..<count).map { index in
                CurlTransfer(request: request(index), completion: .batch(batch, index: index))
            }
            batch.keep(transfers)
            lanes[lane].hand(transfers)
        }
        // `answers.transfers` are freed here, on the caller's thread, as this returns.
        return answers.results
    }

    /// Fails requests still waiting or in flight, closes the connections and ends the threads.
    public func shutdown() async {
        for lane in lanes { await lane.shutdown() }
    }

    /// The lane with the fewest requests outstanding, which now counts `count` more.
    private func takeLane(for count: Int) -> Int {
        outstanding.withLock { outstanding in
            var chosen = 0
            for index in outstanding.indices where outstanding[index] < outstanding[chosen] { chosen = index }
            outstanding[chosen] += count
            return chosen
        }
    }

    private func release(_ lane: Int, count: Int) {
        outstanding.withLock { $0[lane] -= count }
    }
}
