import APNsClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Sends committed dispatches to APNs (SPEC §7, §9). Claims due dispatches under a lease, so several
/// gateways share the work and a crashed one's dispatches are taken over; delivers up to
/// `concurrentDispatches` at once with at most `maximumPushesInFlight` pushes waiting for APNs.
///
/// As a `Service` it runs until graceful shutdown: it then stops claiming, lets each dispatch finish
/// the page it is sending, records it, and hands the dispatch back for another gateway to resume.
public final class DeliveryEngine: Service, Sendable {
    public let worker: String
    private let queue: any DeliveryQueue
    private let tenancy: any TenancyRepository
    private let sender: APNsSender
    private let settings: DeliverySettings
    private let doorbell: DeliveryDoorbell
    private let stops: DispatchStopSignals
    private let logger: Logger
    private let apps: ExpiringCache<UUID, App>
    private let limit: InFlightLimit
    private let stopping = NIOLockedValueBox(false)
    private let active = NIOLockedValueBox(0)

    public init(
        queue: any DeliveryQueue, tenancy: any TenancyRepository, sender: APNsSender,
        settings: DeliverySettings = .init(), doorbell: DeliveryDoorbell = .init(), stops: DispatchStopSignals = .init(),
        logger: Logger, worker: String = DeliveryEngine.defaultWorkerName()
    ) {
        self.queue = queue
        self.tenancy = tenancy
        self.sender = sender
        self.settings = settings
        self.doorbell = doorbell
        self.stops = stops
        self.logger = logger
        self.worker = worker
        self.limit = InFlightLimit(settings.maximumPushesInFlight)
        self.apps = ExpiringCache(timeToLive: settings.appCacheTimeToLive)
    }

    /// Host, process id and a random suffix: unique among gateways sharing a database.
    public static func defaultWorkerName() -> String {
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        let name = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(name)/\(getpid())/\(UUID().uuidString.prefix(8).lowercased())"
    }

    public func run() async throws {
        logger.info("delivery started", metadata: ["worker": "\(worker)"])
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { ticker in
                ticker.addTask { await self.ringEveryPollInterval() }
                ticker.addTask { await self.checkStopsEveryInterval() }
                await claimAndDeliverUntilStopped()
                // The tickers may be asleep for a whole interval: wake them to end.
                ticker.cancelAll()
            }
        } onGracefulShutdown: {
            self.stopping.withLockedValue { $0 = true }
            self.doorbell.close()
        }
        await sender.shutdown()
        logger.info("delivery stopped", metadata: ["worker": "\(worker)"])
    }

    /// Claims what is due whenever the doorbell rings and a delivery slot is free; returns once
    /// stopping, after every delivery under way has ended.
    private func claimAndDeliverUntilStopped() async {
        await withDiscardingTaskGroup { group in
            var rings = doorbell.rings.makeAsyncIterator()
            while !isStopping {
                let free = settings.concurrentDispatches - active.withLockedValue { $0 }
                if free > 0 {
                    do {
                        for claimed in try await queue.claim(worker: worker, limit: free, lease: settings.lease) {
                            active.withLockedValue { $0 += 1 }
                            group.addTask {
                                _ = await self.deliver(claimed)
                                self.active.withLockedValue { $0 -= 1 }
                                self.doorbell.ring()
                            }
                        }
                    } catch {
                        logger.error("could not claim dispatches", metadata: ["error": "\(error)"])
                    }
                }
                guard await rings.next() != nil else { break }
            }
        }
    }

    /// Delivers everything due now, then returns how many dispatches it handled: for tests and tools
    /// that want delivery without running the service. Dispatches handed back for later are not waited for.
    @discardableResult
    public func deliverDue() async throws -> Int {
        var handled = 0
        while true {
            let claimed = try await queue.claim(worker: worker, limit: settings.concurrentDispatches, lease: settings.lease)
            if claimed.isEmpty { return handled }
            await withDiscardingTaskGroup { group in
                for dispatch in claimed { group.addTask { _ = await self.deliver(dispatch) } }
            }
            handled += claimed.count
        }
    }

    /// Closes the sender's connections; `run()` does this itself when it ends.
    public func shutdown() async {
        await sender.shutdown()
    }

    private var isStopping: Bool { stopping.withLockedValue { $0 } }

    private func deliver(_ claimed: ClaimedDispatch) async -> DispatchDelivery.Ending? {
        let id = claimed.dispatch.id
        let stop = stops.watch(id)
        defer { stops.unwatch(id) }
        let delivery = DispatchDelivery(
            queue: queue, sending: PushSending(sender: sender, limit: limit, retry: settings.pushRetry),
            settings: settings, worker: worker, logger: logger, isStopping: { [stopping] in stopping.withLockedValue { $0 } },
            stop: stop)
        let started = ContinuousClock.now
        do {
            let app = try await apps.value(for: claimed.dispatch.appID) { try await tenancy.app(id: claimed.dispatch.appID) }
            let ending = try await delivery.deliver(claimed, app: app)
            GatewayMetrics.deliveryEnded(claimed, ending)
            logger.debug(
                "dispatch delivery ended",
                metadata: [
                    "dispatch_id": "\(claimed.dispatch.id)", "ending": "\(ending)",
                    "milliseconds": "\((ContinuousClock.now - started).inMilliseconds)",
                ])
            return ending
        } catch {
            // The database failed us mid-way: hand the dispatch back; if even that fails, the lease runs out.
            logger.error("dispatch delivery failed", metadata: ["dispatch_id": "\(claimed.dispatch.id)", "error": "\(error)"])
            let retryAt = Date() + settings.dispatchRetry.baseDelay
            _ = try? await queue.release(claimed.dispatch.id, worker: worker, retryAt: retryAt)
            return nil
        }
    }

    /// Dispatches superseded or cancelled through another gateway: one query a second for all of this
    /// process's deliveries, so none goes on for more than about a second (or one page) after it.
    private func checkStopsEveryInterval() async {
        while !isStopping, !Task.isCancelled {
            try? await Task.sleep(for: settings.stopCheckInterval)
            let delivering = stops.watched
            guard !delivering.isEmpty else { continue }
            do {
                for (id, reason) in try await queue.stopRequests(among: delivering) { stops.stop(id, because: reason) }
            } catch {
                logger.warning("could not check for superseded or cancelled dispatches", metadata: ["error": "\(error)"])
            }
        }
    }

    private func ringEveryPollInterval() async {
        while !isStopping, !Task.isCancelled {
            try? await Task.sleep(for: settings.pollInterval)
            doorbell.ring()
        }
    }
}
