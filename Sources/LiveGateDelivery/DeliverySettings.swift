import LiveGateDomain
/// How the delivery engine paces itself; `livegate serve` reads these from the environment.
package struct DeliverySettings: Sendable {
    /// Devices fetched per page of a fan-out (one query each), and recorded together. Two pages overlap,
    /// so a crash repeats at most two; `livegate serve` makes a page as large as the APNs connections'
    /// streams carry (at least 1,000), so that one fan-out can fill them.
    package var pageSize: Int
    /// Pushes handed to the HTTP/2 client at once, across every dispatch this process delivers: those
    /// on its streams and those waiting there for the next free stream. The default here is 400;
    /// `livegate serve` derives it from the APNs connections and streams it uses: twice what they carry
    /// (`LIVEGATE_APNS_CONNECTIONS` × `LIVEGATE_APNS_MAX_STREAMS`), so that a stream an answer frees
    /// takes its next push at once while a batch's last answers are still out (bench/delivery `rtt`,
    /// alternating: 0.76–0.82× libcurl alone with no more than the streams carry, 0.81–0.88× with twice).
    package var maximumPushesInFlight: Int
    /// What the APNs connections' streams carry at once, when known (`livegate serve` sets it).
    package var streamsCarried: Int?
    /// Pushes handed to the HTTP/2 client together (one task, one wake-up): a quarter of what the streams
    /// carry (or of what may be in flight, if less), so several batches keep the connections busy while
    /// others wait for their last answers. An eighth made twice the tasks and wake-ups for nothing: at
    /// 4 × 500 streams and a 50 ms round trip a quarter delivered 8–9% faster (bench/delivery `rtt`); a
    /// third or a half, 10–30% slower.
    package var pushesPerBatch: Int { max(1, min(maximumPushesInFlight, streamsCarried ?? maximumPushesInFlight) / 4) }
    /// Dispatches one process delivers at once as fan-outs, page by page: those beyond
    /// `SmallDispatch.maximumDevices` devices, broadcasts, resumed and scheduled `end`s. Small dispatches
    /// take no slot: they go together, as many at once as the pushes in flight allow (`SmallDispatchBatch`).
    package var concurrentDispatches: Int
    /// How long a claim holds without being renewed; a crashed worker's dispatches are taken over after it.
    package var lease: Duration
    /// How often to look for dispatches committed by other gateways (this one's own are seen at once).
    package var pollInterval: Duration
    // Retries, from the innermost: a push is retried in place (`pushRetry`, `PushSending`); a page's
    // pushes whose answers were lost with a connection are sent again in rounds while others get
    // through (`resendRetry`, `resendUnanswered`); a dispatch none of whose pushes got through, or
    // whose database did not answer, is handed back, due later (`handBackRetry`). A rejected provider
    // token is renewed once per send (`ProviderTokenCache`), and libcurl itself retries nothing.
    /// One push, retried in place on 429, 5xx and transport failures.
    package var pushRetry: RetryPolicy
    /// The longest one push waits for its device (or channel) after APNs answered 429 `TooManyRequests`
    /// (its `retry-after`, or the device's exponential backoff by `pushRetry`'s delays) before it is
    /// given up. Only that device waits, but the page it is on is recorded once it is answered, so this
    /// bounds how long one throttled device can hold its page. 30 seconds by default
    /// (`LIVEGATE_DELIVERY_MAX_THROTTLE_WAIT_SECONDS`); a push is also given up when the wait would end
    /// past its expiry.
    package var maximumThrottleWait: Duration
    /// A page's pushes whose answers were lost (their connection failed) while others were answered:
    /// how many rounds, and the wait before each.
    package var resendRetry: RetryPolicy
    /// A whole dispatch handed back, due later: when APNs could not be reached at all (attempts count
    /// its claims), or the database did not answer (the first delay only).
    package var handBackRetry: RetryPolicy
    /// Update tokens not refreshed for this long are not sent to and are retired (12 hours, the
    /// longest a Live Activity lives).
    package var tokenLifetime: Duration
    /// How long apps are kept in memory, so a dispatch costs no app lookup: a changed credential or
    /// endpoint is used within this. `livegate serve` sets it, like the API's, from
    /// `LIVEGATE_LOOKUP_CACHE_SECONDS`; zero looks the app up for every dispatch.
    package var appCacheTimeToLive: Duration
    /// How often the engine asks the database whether a dispatch it delivers was superseded or cancelled
    /// through another gateway (its own API tells it at once; each recorded page tells it too).
    package var stopCheckInterval: Duration
    /// Claimed updates and ends supersede the older dispatches they cover (`LIVEGATE_SUPERSESSION=off`
    /// turns it off, to measure what it saves).
    package var supersedes: Bool
    /// At most this long, a dispatch waits for the ones it superseded to stop sending before it starts,
    /// so no device gets the older state after the newer one. A crashed gateway's never stop: it goes on.
    package var supersededStopTimeout: Duration
    /// How long an ended activity's channel is kept: a scheduled `end` starts it when it is sent.
    package var channelRetention: Duration
    /// Updates this gateway commits are handed to its engine (`DeliveryHandoff`) and start as one batch
    /// at most this often: what comes within it gathers into the next batch, unless a batch's worth of
    /// pushes (`pushesPerBatch`) is waiting. It adds at most this much latency, only under load.
    package var handoverInterval: Duration

    package init(
        pageSize: Int = 1_000, maximumPushesInFlight: Int = 400, concurrentDispatches: Int = 8,
        lease: Duration = .seconds(60), pollInterval: Duration = .milliseconds(250),
        pushRetry: RetryPolicy = .init(maximumAttempts: 4, baseDelay: .milliseconds(250), maximumDelay: .seconds(5)),
        resendRetry: RetryPolicy = .init(maximumAttempts: 10, baseDelay: .seconds(5), maximumDelay: .seconds(600)),
        handBackRetry: RetryPolicy = .init(maximumAttempts: 10, baseDelay: .seconds(5), maximumDelay: .seconds(600)),
        tokenLifetime: Duration = .seconds(12 * 3600), appCacheTimeToLive: Duration = .seconds(5),
        stopCheckInterval: Duration = .seconds(1), supersedes: Bool = true, supersededStopTimeout: Duration = .seconds(3),
        channelRetention: Duration = .seconds(3600), handoverInterval: Duration = .milliseconds(10),
        maximumThrottleWait: Duration = .seconds(30)
    ) {
        self.pageSize = pageSize
        self.maximumPushesInFlight = maximumPushesInFlight
        self.concurrentDispatches = concurrentDispatches
        self.lease = lease
        self.pollInterval = pollInterval
        self.pushRetry = pushRetry
        self.resendRetry = resendRetry
        self.handBackRetry = handBackRetry
        self.tokenLifetime = tokenLifetime
        self.appCacheTimeToLive = appCacheTimeToLive
        self.stopCheckInterval = stopCheckInterval
        self.supersedes = supersedes
        self.supersededStopTimeout = supersededStopTimeout
        self.channelRetention = channelRetention
        self.handoverInterval = handoverInterval
        self.maximumThrottleWait = maximumThrottleWait
    }
}
