import LiveGateDomain

/// How a gateway sends webhooks (docs/configuration.md, `LIVEGATE_WEBHOOK_*`).
package struct WebhookSettings: Sendable {
    /// How often an idle sender asks whether any endpoint has events waiting (one statement for all).
    package var pollInterval: Duration
    /// How long a receiver has to answer a batch.
    package var timeout: Duration
    /// How long an endpoint stays this gateway's without a renewal: longer than a batch can take, so
    /// another gateway takes it over only from a sender that stopped.
    package var lease: Duration
    /// How long an endpoint may keep failing before it is paused.
    package var retryPeriod: Duration
    package var backoff: WebhookBackoff
    /// Endpoints sent to at once (each has at most one batch under way).
    package var concurrency: Int
    /// Events per POST.
    package var batchSize: Int

    package init(
        pollInterval: Duration = .milliseconds(500), timeout: Duration = .seconds(10), lease: Duration? = nil,
        retryPeriod: Duration = .seconds(24 * 3600), backoff: WebhookBackoff = WebhookBackoff(), concurrency: Int = 8,
        batchSize: Int = 500
    ) {
        self.pollInterval = pollInterval
        self.timeout = timeout
        self.lease = lease ?? timeout + .seconds(5)
        self.retryPeriod = retryPeriod
        self.backoff = backoff
        self.concurrency = concurrency
        self.batchSize = batchSize
    }
}
