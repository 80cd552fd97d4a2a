import APNsClient
import APNsCore
import Foundation
import LiveGateDomain
import Logging

/// What an engine is delivering: fan-outs, each holding one of
/// `concurrentDispatches` slots, and small ones, which go together and count against the pushes in flight.
struct Deliveries: Sendable {
    var large: Set<UUID> = []
    var small: Set<UUID> = []

    var all: Set<UUID> { large.union(small) }
}

/// Which shape each claimed dispatch is delivered in.
struct DeliveryPlan: Sendable {
    var small: [SmallDispatch] = []
    var large: [ClaimedDispatch] = []
}

extension DeliveryEngine {
    /// Sorts claimed dispatches by shape. Small: at most `SmallDispatch.maximumDevices` devices (read for
    /// all of them in one query), no broadcast channel, not a start to an audience, nothing special to do first; or stopped before
    /// the claim, which sends nothing. Every other one goes as a fan-out, as many as
    /// `freeSlots` allow: the rest go back, behind what is due now, without counting as an attempt.
    /// Small updates under their app's priority budget are counted together before they go.
    func plan(_ claimed: [ClaimedDispatch], freeSlots: Int) async -> DeliveryPlan {
        var plan = DeliveryPlan()
        var candidates: [(claimed: ClaimedDispatch, destination: APNsDestination)] = []
        for var dispatch in claimed {
            if dispatch.stop != nil {
                plan.small.append(SmallDispatch(claimed: dispatch, destination: nil, targets: [], settings: settings))
                continue
            }
            let appID = dispatch.dispatch.appID
            let life = DispatchLife(dispatch, retry: settings.handBackRetry, supersedes: settings.supersedes)
            guard life.mayGoInABatch(now: Date()),
                let app = try? await apps.value(for: appID, load: { try await tenancy.app(id: appID) }),
                let destination = app.destination
            else {
                plan.large.append(dispatch)
                continue
            }
            if dispatch.isBudgeted(by: app.priorityBudget) { dispatch.priorityBudget = app.priorityBudget }
            candidates.append((dispatch, destination))
        }
        if !candidates.isEmpty {
            do {
                let found = try await queue.firstTargets(
                    of: candidates.map(\.claimed), limit: SmallDispatch.maximumDevices + 1, tokenLifetime: settings.tokenLifetime)
                var small: [SmallDispatch] = []
                for candidate in candidates {
                    let first = found[candidate.claimed.dispatch.id] ?? BatchTargets()
                    if !first.hasChannel, first.targets.count <= SmallDispatch.maximumDevices {
                        small.append(
                            SmallDispatch(
                                claimed: candidate.claimed, destination: candidate.destination, targets: first.targets,
                                settings: settings))
                    } else {
                        plan.large.append(candidate.claimed)
                    }
                }
                plan.small += try await countedAgainstBudgets(small)
            } catch {
                // A fan-out meets the same database, and hands its dispatch back as it must.
                plan.small.removeAll { small in candidates.contains { $0.claimed.dispatch.id == small.id } }
                plan.large += candidates.map(\.claimed)
            }
        }
        let free = max(0, freeSlots)
        if plan.large.count > free {
            let excess = Array(plan.large[free...])
            do {
                try await queue.unclaim(excess.map(\.dispatch.id), worker: worker, retryAt: Date() + settings.pollInterval)
                plan.large.removeLast(excess.count)
            } catch {
                logger.warning(
                    "could not give back dispatches beyond the free slots",
                    metadata: ["dispatches": "\(excess.count)", "error": "\(error)"])
            }
        }
        return plan
    }

    /// The small dispatches with each budgeted one's standing, counted for all of them in one statement
    /// (one with no device sends nothing and is not counted; one counted by an earlier claim keeps its place).
    private func countedAgainstBudgets(_ small: [SmallDispatch]) async throws -> [SmallDispatch] {
        let counts = small.compactMap { small -> (claimed: ClaimedDispatch, count: PriorityCount)? in
            guard let budget = small.claimed.priorityBudget, !small.targets.isEmpty else { return nil }
            return (small.claimed, PriorityCount(dispatch: small.claimed.dispatch, budget: budget, targets: small.targets))
        }
        guard !counts.isEmpty else { return small }
        let standings = try await PriorityCounting.standings(of: counts, queue: queue)
        return small.map { small in
            guard let standing = standings[small.id] else { return small }
            var claimed = small.claimed
            claimed.priorityStanding = standing
            return SmallDispatch(claimed: claimed, destination: small.destination, targets: small.targets, settings: settings)
        }
    }

    /// Delivers a batch of small dispatches; a batch the database failed mid-way is handed back whole,
    /// each dispatch as a fan-out hands its own back. Returns how each ended (none for those
    /// another worker holds now).
    /// `flags`: the batch's stop flags, watched since the plan (`watchStops`); unwatched here when it ends.
    @discardableResult
    func deliver(
        _ batch: [SmallDispatch], flags: [UUID: DispatchStopFlag], claimedUnder generation: Int?
    ) async -> [DispatchEnding] {
        let delivery = SmallDispatchBatch(context: context(claimedUnder: generation), stops: stops, sendingNow: sendingNow)
        defer { for small in batch { stops.unwatch(small.id) } }
        do {
            let endings = try await delivery.deliver(batch, flags: flags)
            for small in batch {
                GatewayMetrics.deliveryEnded(small.claimed, endings[small.id])
            }
            return Array(endings.values)
        } catch {
            let unavailable = isDatabaseUnavailable(error)
            logger.log(
                level: unavailable ? .warning : .error, "a batch of small dispatches could not be recorded: handed back",
                metadata: ["dispatches": "\(batch.count)", "error": "\(error)"])
            let dueAt = DispatchLife.dueAfterFailure(databaseUnavailable: unavailable, now: Date(), retry: settings.handBackRetry)
            var endings: [DispatchEnding] = []
            for small in batch where await handBackOnceTheDatabaseAnswers(small.id, dueAt: dueAt) {
                endings.append(.handedBack(retryAt: dueAt))
            }
            return endings
        }
    }
}

extension DeliveryEngine {
    /// Watches the stop flags of a batch from the moment it is planned, before any later claim's batch
    /// can run: a newer dispatch may then stop one of these before it sends (`DispatchesSending`).
    func watchStops(_ batch: [SmallDispatch]) -> [UUID: DispatchStopFlag] {
        Dictionary(batch.map { ($0.id, stops.watch($0.id)) }, uniquingKeysWith: { first, _ in first })
    }
}
