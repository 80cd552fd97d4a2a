import Foundation
import NIOConcurrencyHelpers

/// Counts requests against each workspace's hourly limit (clock hours, UTC; or, with `windowSeconds`
/// 60, each app's per-minute limit on `/push_token_tag`) without a database write per request: it
/// leases blocks of the window's quota from the `QuotaStore` and spends them in memory.
/// When half a block is left it leases the next one in the background, so requests do not wait on the
/// database; only the first request of a window (or one after the block ran dry) does.
///
/// The store never hands out more than the limit, so gateways sharing a database never let a workspace
/// exceed it. The price is the opposite error: near the end of a window a gateway may refuse a request
/// while another still holds unspent quota. Blocks are at most `maximumBlock` and shrink to a sixteenth
/// of what is left, and a gateway holds at most one and a half of them, so at most
/// (gateways − 1) × 1.5 × min(maximumBlock, limit / 16) requests of a window are refused early; a
/// gateway that stops returns what it did not spend.
package final class RateLimiter: Sendable {
    private struct Window {
        var start: Int64
        var limit: Int
        /// Leased to this gateway, not yet spent.
        var available = 0
        /// The size of the last block asked for: half of it left starts a refill in the background.
        var lastBlock = 0
        /// The store's total for the window after this gateway's last lease.
        var windowTotal = 0
        var isLeasing = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// After a lease came back empty, refuse without asking again until then.
        var spentUntil: ContinuousClock.Instant?

        init(start: Int64, limit: Int) {
            self.start = start
            self.limit = limit
        }
    }

    private enum Step {
        /// `refill`: a block to lease in the background, so that no request waits for the database.
        case decided(RateLimitDecision, refill: (start: Int64, wanted: Int)? = nil)
        case waitForLease(start: Int64)
        case lease(start: Int64, wanted: Int)
    }

    /// The window's length: clock hours (3600) for the message endpoints, minutes for registrations.
    let windowSeconds: Int64
    let store: any QuotaStore
    let maximumBlock: Int
    /// How long a spent window is believed spent before the store is asked again (another gateway may
    /// have returned quota, or the limit been raised).
    let spentRecheck: Duration
    private let windows = NIOLockedValueBox([UUID: Window]())

    package init(
        store: any QuotaStore, windowSeconds: Int64 = 3600, maximumBlock: Int = 250, spentRecheck: Duration = .seconds(1)
    ) {
        self.store = store
        self.windowSeconds = windowSeconds
        self.maximumBlock = maximumBlock
        self.spentRecheck = spentRecheck
    }

    /// Counts one request of `workspaceID` at `now` against `limit`, or refuses it.
    package func acquire(workspaceID: UUID, limit: Int, now: Date) async throws -> RateLimitDecision {
        let requestWindow = windowStart(now)
        let second = Int64(now.timeIntervalSince1970.rounded(.down))
        while true {
            let (step, orphans) = windows.withLockedValue { windows -> (Step, [CheckedContinuation<Void, Never>]) in
                var orphans: [CheckedContinuation<Void, Never>] = []
                var window: Window
                if let existing = windows[workspaceID], existing.start >= requestWindow {
                    // A request stamped just before the hour turned counts in the new hour.
                    window = existing
                } else {
                    // A new hour: whoever waited on the old hour's lease looks again.
                    orphans = windows[workspaceID]?.waiters ?? []
                    window = Window(start: requestWindow, limit: limit)
                }
                defer { windows[workspaceID] = window }
                window.limit = limit
                let resetAt = window.start + windowSeconds
                let retryAfter = max(1, resetAt - second)
                if window.available > 0 {
                    window.available -= 1
                    let remaining = max(0, limit - window.windowTotal + window.available)
                    let decision = RateLimitDecision(
                        allowed: true, limit: limit, remaining: remaining, resetAt: resetAt, retryAfter: retryAfter)
                    guard !window.isLeasing, window.spentUntil == nil, window.available * 2 < window.lastBlock else {
                        return (.decided(decision), orphans)
                    }
                    window.isLeasing = true
                    window.lastBlock = blockSize(window)
                    return (.decided(decision, refill: (window.start, window.lastBlock)), orphans)
                }
                if let until = window.spentUntil, ContinuousClock.now < until {
                    return (.decided(.init(allowed: false, limit: limit, remaining: 0, resetAt: resetAt, retryAfter: retryAfter)), orphans)
                }
                if window.isLeasing { return (.waitForLease(start: window.start), orphans) }
                window.isLeasing = true
                window.lastBlock = blockSize(window)
                return (.lease(start: window.start, wanted: window.lastBlock), orphans)
            }
            for orphan in orphans { orphan.resume() }
            switch step {
            case .decided(let decision, let refill):
                if let refill {
                    Task { await self.refill(workspaceID: workspaceID, start: refill.start, wanted: refill.wanted, limit: limit) }
                }
                return decision
            case .waitForLease(let start):
                await waitForLease(workspaceID: workspaceID, start: start)
            case .lease(let start, let wanted):
                try await lease(workspaceID: workspaceID, start: start, wanted: wanted, limit: limit)
            }
        }
    }

    /// Returns every unspent block of the current windows to the store (when the gateway stops).
    package func giveBackUnspent(now: Date) async {
        let start = windowStart(now)
        let unspent = windows.withLockedValue { windows -> [(UUID, Int)] in
            defer { windows = [:] }
            return windows.compactMap { $0.value.start == start && $0.value.available > 0 ? ($0.key, $0.value.available) : nil }
        }
        for (workspaceID, count) in unspent {
            try? await store.giveBack(
                workspaceID: workspaceID, window: Date(timeIntervalSince1970: TimeInterval(start)), count: count)
        }
    }

    /// A sixteenth of what is left of the window, at most `maximumBlock`, at least one.
    private func blockSize(_ window: Window) -> Int {
        max(1, min(maximumBlock, (window.limit - window.windowTotal) / 16))
    }

    /// A background lease: requests go on spending what is left meanwhile. A failure is not lost: the
    /// next request that finds the block empty leases in the foreground and sees it.
    private func refill(workspaceID: UUID, start: Int64, wanted: Int, limit: Int) async {
        try? await lease(workspaceID: workspaceID, start: start, wanted: wanted, limit: limit)
    }

    /// Asks the store for a block and records what came back; the window stops leasing either way.
    private func lease(workspaceID: UUID, start: Int64, wanted: Int, limit: Int) async throws {
        let lease: QuotaLease
        do {
            lease = try await store.lease(
                workspaceID: workspaceID, window: Date(timeIntervalSince1970: TimeInterval(start)), wanted: wanted, limit: limit)
        } catch {
            finishLease(workspaceID: workspaceID, start: start, lease: nil)
            throw error
        }
        finishLease(workspaceID: workspaceID, start: start, lease: lease)
    }

    func windowStart(_ date: Date) -> Int64 {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        return seconds - ((seconds % windowSeconds) + windowSeconds) % windowSeconds
    }

    /// One request leases at a time per workspace; the others wait for its result, then look again.
    private func waitForLease(workspaceID: UUID, start: Int64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = windows.withLockedValue { windows -> Bool in
                guard var window = windows[workspaceID], window.start == start, window.isLeasing else { return false }
                window.waiters.append(continuation)
                windows[workspaceID] = window
                return true
            }
            if !waiting { continuation.resume() }
        }
    }

    private func finishLease(workspaceID: UUID, start: Int64, lease: QuotaLease?) {
        let waiters = windows.withLockedValue { windows -> [CheckedContinuation<Void, Never>] in
            // The hour may have turned while the lease was out: the lease belonged to a window now gone,
            // whose waiters were already sent to look again.
            guard var window = windows[workspaceID], window.start == start else { return [] }
            defer { windows[workspaceID] = window }
            window.isLeasing = false
            if let lease {
                window.available += lease.leased
                window.windowTotal = lease.windowTotal
                window.spentUntil = lease.leased == 0 ? ContinuousClock.now + spentRecheck : nil
            }
            defer { window.waiters = [] }
            return window.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
