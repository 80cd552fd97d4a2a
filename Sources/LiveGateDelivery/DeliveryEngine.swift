import APNsClient
import Foundation
import LiveGateDomain
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import UUIDText

/// Sends committed dispatches to APNs. Claims due dispatches under a lease and, given a
/// `DeliveryWorkerSession`, under its session, so several gateways share the work and a crashed one's
/// dispatches are taken over within a poll interval of its death (after the lease when only the lease
/// can tell); delivers up to `concurrentDispatches` at once with at most `maximumPushesInFlight` pushes
/// waiting for APNs.
///
/// While the database cannot be reached it pauses: claims fail and are tried again at every poll, a
/// delivery whose next step needs the database stops there and hands its dispatch back once it answers.
///
/// As a `Service` it runs until graceful shutdown: it then stops claiming, lets each dispatch finish
/// the page it is sending, records it, and hands the dispatch back for another gateway to resume.
package final class DeliveryEngine: Service, Sendable {
    package let worker: String
    let queue: any DeliveryQueue
    let tenancy: any TenancyRepository
    let sender: APNsSender
    let settings: DeliverySettings
    let doorbell: DeliveryDoorbell
    let stops: DispatchStopSignals
    let logger: Logger
    let apps: ExpiringCache<UUID, App>
    let limit: InFlightLimit
    /// The devices and channels APNs throttled (429 `TooManyRequests`), for every delivery of this engine.
    let backoff: TokenBackoff
    private let stopping = NIOLockedValueBox(false)
    /// The dispatches this engine is delivering: never claimed again while it does.
    let delivering = NIOLockedValueBox(Deliveries())
    /// Nil: claims carry no session, and only the lease frees a dead worker's dispatches.
    let liveness: DeliveryLiveness?
    /// The dispatches with pushes out now, in this process.
    let sendingNow = DispatchesSending()
    /// Where this gateway's commits hand it the updates they wrote leased to it; nil: it claims everything.
    let handoff: DeliveryHandoff?

    package init(
        queue: any DeliveryQueue, tenancy: any TenancyRepository, sender: APNsSender,
        settings: DeliverySettings = .init(), doorbell: DeliveryDoorbell = .init(), stops: DispatchStopSignals = .init(),
        logger: Logger, worker: String = DeliveryEngine.defaultWorkerName(), session: (any DeliveryWorkerSession)? = nil,
        handoff: DeliveryHandoff? = nil
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
        self.backoff = TokenBackoff(policy: settings.pushRetry)
        self.apps = ExpiringCache(timeToLive: settings.appCacheTimeToLive)
        self.liveness = session.map { DeliveryLiveness(session: $0, logger: logger) }
        self.handoff = handoff
    }

    /// Host, process id and a random suffix: unique among gateways sharing a database.
    package static func defaultWorkerName() -> String {
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        let name = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(name)/\(getpid())/\(UUID().uuidString.prefix(8).lowercased())"
    }

    package func run() async throws {
        logger.info("delivery started", metadata: ["worker": "\(worker)"])
        openHandoff()
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { ticker in
                ticker.addTask { await self.ringEveryPollInterval() }
                ticker.addTask { await self.checkStopsEveryInterval() }
                if let liveness {
                    ticker.addTask {
                        await liveness.keep(isStopping: { self.isStopping }, onTaken: { self.doorbell.ring() })
                    }
                }
                await claimAndDeliverUntilStopped()
                // The tickers may be asleep for a whole interval: wake them to end.
                ticker.cancelAll()
            }
        } onGracefulShutdown: {
            self.stopping.withLockedValue { $0 = true }
            self.doorbell.close()
        }
        await giveBackHandedOver()
        // Everything claimed was handed back or finished: the session may end.
        await liveness?.close()
        await sender.shutdown()
        logger.info("delivery stopped", metadata: ["worker": "\(worker)"])
    }

    /// Claims what is due whenever the doorbell rings, there is room and the session (if any) is held;
    /// returns once stopping, after every delivery under way has ended. Room: what the pushes in flight
    /// allow; fan-outs beyond the free `concurrentDispatches` slots go back (`plan`).
    private func claimAndDeliverUntilStopped() async {
        await withDiscardingTaskGroup { group in
            var rings = doorbell.rings.makeAsyncIterator()
            var paused = false
            while !isStopping {
                await startHandedOver(in: &group)
                let busy = delivering.withLockedValue { $0 }
                let held = liveness?.held
                let room = claimRoom(busy)
                if room > 0, liveness == nil || held != nil, doorbell.takeClaimRequest() {
                    do {
                        let claimed = try await queue.claim(
                            worker: worker, session: held?.session, limit: room, lease: settings.lease, excluding: busy.all)
                        if paused {
                            paused = false
                            logger.info("database answers again: delivery resumed")
                        }
                        if !claimed.isEmpty {
                            let plan = await plan(claimed, freeSlots: settings.concurrentDispatches - busy.large.count)
                            start(plan, claimedUnder: held?.generation, in: &group)
                        }
                        // A full claim leaves more due: claim again without waiting for a ring.
                        if claimed.count == room { doorbell.ring() }
                    } catch  where isDatabaseUnavailable(error) {
                        if !paused {
                            paused = true
                            logger.warning("database unavailable: delivery paused", metadata: ["error": "\(error)"])
                        }
                    } catch {
                        logger.error("could not claim dispatches", metadata: ["error": "\(error)"])
                    }
                }
                guard await rings.next() != nil else { break }
            }
        }
    }

    /// How many dispatches the next claim may take.
    private func claimRoom(_ busy: Deliveries) -> Int {
        min(settings.pushesPerBatch, settings.maximumPushesInFlight - busy.small.count)
    }

    /// Starts the plan's deliveries in `group`: the small dispatches as one batch, each other one alone.
    func start(_ plan: DeliveryPlan, claimedUnder generation: Int?, in group: inout DiscardingTaskGroup) {
        delivering.withLockedValue { busy in
            busy.small.formUnion(plan.small.map(\.id))
            busy.large.formUnion(plan.large.map(\.dispatch.id))
        }
        if !plan.small.isEmpty {
            let flags = watchStops(plan.small)
            group.addTask {
                let endings = await self.deliver(plan.small, flags: flags, claimedUnder: generation)
                self.delivering.withLockedValue { $0.small.subtract(plan.small.map(\.id)) }
                self.delivered(handingBackDueNow: endings.contains { Self.isDueNow($0) })
            }
        }
        for dispatch in plan.large {
            group.addTask {
                let ending = await self.deliver(dispatch, claimedUnder: generation)
                self.delivering.withLockedValue { _ = $0.large.remove(dispatch.dispatch.id) }
                self.delivered(handingBackDueNow: Self.isDueNow(ending))
            }
        }
    }

    /// Delivers everything due now, then returns how many dispatches it handled: for tests and tools
    /// that want delivery without running the service. Dispatches handed back for later are not waited for.
    @discardableResult
    package func deliverDue() async throws -> Int {
        var handled = 0
        while true {
            let held = liveness?.held
            let claimed = try await queue.claim(
                worker: worker, session: held?.session, limit: max(settings.concurrentDispatches, claimRoom(Deliveries())),
                lease: settings.lease, excluding: [])
            if claimed.isEmpty { return handled }
            let plan = await plan(claimed, freeSlots: claimed.count)
            await withDiscardingTaskGroup { group in
                if !plan.small.isEmpty {
                    let flags = watchStops(plan.small)
                    group.addTask { await self.deliver(plan.small, flags: flags, claimedUnder: held?.generation) }
                }
                for dispatch in plan.large { group.addTask { _ = await self.deliver(dispatch, claimedUnder: held?.generation) } }
            }
            handled += claimed.count
        }
    }

    /// Closes the sender's connections; `run()` does this itself when it ends.
    package func shutdown() async {
        await sender.shutdown()
    }

    var isStopping: Bool { stopping.withLockedValue { $0 } }

    /// Whether a delivery left its dispatch handed back and due already.
    static func isDueNow(_ ending: DispatchEnding?, now: Date = Date()) -> Bool {
        guard case .handedBack(let retryAt) = ending else { return false }
        return retryAt <= now
    }

    /// What a delivery of dispatches claimed (or handed over) under session `generation` works with.
    func context(claimedUnder generation: Int?) -> DeliveryContext {
        DeliveryContext(
            queue: queue,
            sending: PushSending(
                sender: sender, limit: limit, retry: settings.pushRetry, backoff: backoff,
                maximumThrottleWait: settings.maximumThrottleWait),
            settings: settings,
            worker: worker, logger: logger, isStopping: { [stopping] in stopping.withLockedValue { $0 } },
            ownership: DispatchOwnership(liveness: liveness, claimedUnder: generation))
    }

    private func deliver(_ claimed: ClaimedDispatch, claimedUnder generation: Int?) async -> DispatchEnding? {
        let id = claimed.dispatch.id
        let stop = stops.watch(id)
        // Sending for as long as it is delivered: a newer small dispatch waits for it as it always did.
        _ = sendingNow.begin([id]) { _ in nil }
        defer {
            sendingNow.end([id])
            stops.unwatch(id)
        }
        let delivery = FanoutDelivery(context: context(claimedUnder: generation), stop: stop, stops: stops, sendingNow: sendingNow)
        let started = ContinuousClock.now
        do {
            let app = try await apps.value(for: claimed.dispatch.appID) { try await tenancy.app(id: claimed.dispatch.appID) }
            let ending = try await delivery.deliver(claimed, app: app)
            GatewayMetrics.deliveryEnded(claimed, ending)
            logger.debug(
                "dispatch delivery ended",
                metadata: [
                    "dispatch_id": "\(claimed.dispatch.id.lowercasedText)", "ending": "\(ending.map { "\($0)" } ?? "lease lost")",
                    "milliseconds": "\((ContinuousClock.now - started).inMilliseconds)",
                ])
            return ending
        } catch  where isDatabaseUnavailable(error) {
            logger.warning(
                "database unavailable mid-delivery: the dispatch is handed back once it answers",
                metadata: ["dispatch_id": "\(id.lowercasedText)", "error": "\(error)"])
            let dueAt = DispatchLife.dueAfterFailure(databaseUnavailable: true, now: Date(), retry: settings.handBackRetry)
            return await handBackOnceTheDatabaseAnswers(id, dueAt: dueAt) ? .handedBack(retryAt: dueAt) : nil
        } catch {
            // The database refused something mid-way: the dispatch is tried again after the base delay.
            logger.error("dispatch delivery failed", metadata: ["dispatch_id": "\(id.lowercasedText)", "error": "\(error)"])
            let dueAt = DispatchLife.dueAfterFailure(databaseUnavailable: false, now: Date(), retry: settings.handBackRetry)
            return await handBackOnceTheDatabaseAnswers(id, dueAt: dueAt) ? .handedBack(retryAt: dueAt) : nil
        }
    }

    /// The dispatch's next step failed: whatever was sent and not recorded is sent again by whoever
    /// resumes it (a duplicate is harmless), so it is released, due at `dueAt`, as soon as the
    /// database answers; another worker may have taken it over first, which is as good. The release is
    /// tried again while the database is away even when the step failed otherwise (an outage can first
    /// show as another error): given up after one try, the dispatch would wait for its lease to run out.
    /// Stopping first, it stays claimed, and the end of this process's session frees it. Returns whether
    /// it went back: the caller rings for a claim once the dispatch is no longer among those it delivers,
    /// which a claim leaves out.
    func handBackOnceTheDatabaseAnswers(_ id: UUID, dueAt: Date) async -> Bool {
        while !isStopping {
            do {
                return try await queue.release(id, worker: worker, retryAt: dueAt)
            } catch  where isDatabaseUnavailable(error) {
                try? await Task.sleep(for: .milliseconds(250))
            } catch {
                logger.error("could not hand a dispatch back", metadata: ["dispatch_id": "\(id.lowercasedText)", "error": "\(error)"])
                return false
            }
        }
        return false
    }

    /// After a delivery ended and left `delivering`: a dispatch it handed back due now is claimed at
    /// once (a claim while it was still being delivered left it out); otherwise the room it made is
    /// looked at.
    func delivered(handingBackDueNow handedBack: Bool) {
        if handedBack { doorbell.ring() } else { doorbell.wake() }
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
                // While the database is away the claim loop says so once; this would say it every second.
                logger.log(
                    level: isDatabaseUnavailable(error) ? .debug : .warning,
                    "could not check for superseded or cancelled dispatches", metadata: ["error": "\(error)"])
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
