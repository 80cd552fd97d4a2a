import Foundation
import LiveGateDomain
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Sends each workspace's events to its webhook endpoints: leases the endpoints that have events
/// waiting (`WebhookQueue`, shared by every gateway over the database), and for each, in order, posts
/// batches of up to `batchSize` events from its cursor until none waits or one fails. The cursor
/// moves only after a 2xx, so an event may be sent twice (a crash between the answer and the update)
/// and is never skipped.
package final class WebhookSender: Service, Sendable {
    let queue: any WebhookQueue
    let log: any EventLog
    let settings: WebhookSettings
    let worker: String
    let logger: Logger
    let client: WebhookHTTPClient
    /// Endpoints being sent to by this gateway now.
    private let busy = NIOLockedValueBox<Set<UUID>>([])
    /// How far behind each endpoint this gateway last sent to was, until it caught up.
    private let lags = NIOLockedValueBox<[UUID: Double]>([:])

    package init(queue: any WebhookQueue, log: any EventLog, settings: WebhookSettings, worker: String, logger: Logger) {
        self.queue = queue
        self.log = log
        self.settings = settings
        self.worker = worker
        self.logger = logger
        client = WebhookHTTPClient(threads: settings.concurrency, timeout: settings.timeout)
    }

    package func run() async throws {
        await withDiscardingTaskGroup { group in
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                let taken = await leaseMore()
                for endpoint in taken {
                    group.addTask {
                        await self.send(endpoint)
                        _ = self.busy.withLockedValue { $0.remove(endpoint.id) }
                    }
                }
                if taken.isEmpty {
                    try? await cancelWhenGracefulShutdown { try await Task.sleep(for: self.settings.pollInterval) }
                }
            }
        }
        await client.shutdown()
    }

    /// Endpoints newly leased to this gateway, up to its free room; none when the database fails (the
    /// next poll tries again).
    private func leaseMore() async -> [LeasedWebhook] {
        let current = busy.withLockedValue { $0 }
        guard current.count < settings.concurrency else { return [] }
        do {
            let taken = try await queue.lease(
                worker: worker, for: settings.lease, limit: settings.concurrency - current.count, excluding: current)
            busy.withLockedValue { $0.formUnion(taken.map(\.id)) }
            return taken
        } catch {
            logger.warning("leasing webhook endpoints failed", metadata: ["error": "\(error)"])
            return []
        }
    }

    /// Batches to one endpoint until it caught up, failed, or is no longer this gateway's.
    func send(_ endpoint: LeasedWebhook) async {
        var cursor = endpoint.cursor
        var metadata: Logger.Metadata = [
            "webhook_id": "\(endpoint.id.uuidString.lowercased())", "workspace_id": "\(endpoint.workspaceID.uuidString.lowercased())",
        ]
        do {
            while true {
                guard try await queue.renew(endpoint.id, worker: worker, for: settings.lease) else {
                    recordLag(endpoint.id, nil)
                    return
                }
                let events = try await log.events(
                    workspaceID: endpoint.workspaceID, appID: endpoint.appID, types: endpoint.eventTypes, after: cursor,
                    limit: settings.batchSize)
                guard let first = events.first, let last = events.last else {
                    recordLag(endpoint.id, nil)
                    try await queue.release(endpoint.id, worker: worker)
                    return
                }
                recordLag(endpoint.id, max(0, Date().timeIntervalSince(first.occurredAt)))
                let outcome = await post(events, to: endpoint)
                metadata["events"] = "\(events.count)"
                guard case .answered(let status, _) = outcome, (200..<300).contains(status) else {
                    GatewayMetrics.webhookBatch(delivered: false, events: events.count)
                    try await failed(endpoint, outcome: outcome, metadata: metadata)
                    return
                }
                GatewayMetrics.webhookBatch(delivered: true, events: events.count)
                guard try await queue.delivered(endpoint.id, worker: worker, through: last.position, count: events.count) else {
                    // Another gateway holds it now (this one was too slow): it sends from the cursor it finds.
                    logger.info("webhook endpoint lost its lease mid-batch", metadata: metadata)
                    recordLag(endpoint.id, nil)
                    return
                }
                logger.debug("webhook batch delivered", metadata: metadata)
                cursor = last.position
                if events.count < settings.batchSize || Task.isShuttingDownGracefully {
                    recordLag(endpoint.id, nil)
                    try await queue.release(endpoint.id, worker: worker)
                    return
                }
            }
        } catch {
            // The lease runs out by itself; the events stay behind the cursor for the next sender.
            logger.warning("sending to a webhook endpoint failed", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            try? await queue.release(endpoint.id, worker: worker)
        }
    }

    private func post(_ events: [StoredEvent], to endpoint: LeasedWebhook) async -> WebhookHTTPClient.Outcome {
        var body: [UInt8] = [UInt8(ascii: "[")]
        for (index, event) in events.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: event.json())
        }
        body.append(UInt8(ascii: "]"))
        let signature = WebhookSignature.header(
            secret: endpoint.secret, timestamp: Int64(Date().timeIntervalSince1970), body: body)
        return await client.post(
            url: endpoint.url,
            headers: [
                ("Content-Type", "application/json"), (WebhookSignature.headerName, signature), ("User-Agent", "LiveGate-Webhooks"),
            ],
            body: body)
    }

    private func failed(_ endpoint: LeasedWebhook, outcome: WebhookHTTPClient.Outcome, metadata: Logger.Metadata) async throws {
        let error: String
        switch outcome {
        case .answered(let status, let body):
            let text = body.trimmingCharacters(in: .whitespacesAndNewlines)
            error = text.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(text)"
        case .failed(let reason): error = reason
        }
        let retryAfter = settings.backoff.delay(afterFailures: endpoint.failures + 1)
        guard
            let failure = try await queue.failed(
                endpoint.id, worker: worker, error: error, retryAfter: retryAfter, retryPeriod: settings.retryPeriod)
        else {
            recordLag(endpoint.id, nil)
            return
        }
        var metadata = metadata
        metadata["error"] = "\(error)"
        metadata["failures"] = "\(failure.failures)"
        if failure.paused {
            recordLag(endpoint.id, nil)
            metadata["failing_since"] = "\(failure.failingSince)"
            logger.warning(
                "webhook endpoint paused: it failed for the whole retry period; resume it to send its events", metadata: metadata)
        } else {
            metadata["retry_in_ms"] = "\(retryAfter.components.seconds * 1000 + retryAfter.components.attoseconds / 1_000_000_000_000_000)"
            logger.info("webhook batch failed", metadata: metadata)
        }
    }

    /// `seconds` nil: the endpoint caught up or is no longer this gateway's. The gauge shows the largest.
    private func recordLag(_ id: UUID, _ seconds: Double?) {
        let largest = lags.withLockedValue { lags in
            lags[id] = seconds
            return lags.values.max() ?? 0
        }
        GatewayMetrics.webhookLag(seconds: largest)
    }
}
