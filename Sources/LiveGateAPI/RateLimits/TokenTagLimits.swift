import Foundation
import HTTPTypes
import LiveGateDomain

/// The abuse limits on the SDK's routes (`POST /push_token_tag`, `POST /live_activity/device_state`), which
/// need no key (the `app_id` ships inside the app), counted together:
/// calls per clock minute from one client address, counted in each gateway's memory before anything
/// else, and registrations per clock minute per app, shared by every gateway through PostgreSQL and
/// counted once a call is valid and authenticated, just before it is stored. `0` turns a limit off.
package struct TokenTagLimits: Sendable {
    package struct Settings: Sendable, Equatable {
        /// A stadium's worth of devices registering at kick-off, twice over (docs/operating/token-tag-limits.md).
        package static let defaultPerApp = 600_000
        /// The devices a carrier-grade NAT can put behind one IPv4 address, a few registrations each.
        package static let defaultPerAddress = 20_000

        package var perApp: Int
        package var perAddress: Int

        package init(perApp: Int = defaultPerApp, perAddress: Int = defaultPerAddress) {
            self.perApp = perApp
            self.perAddress = perAddress
        }

        package static let unlimited = Settings(perApp: 0, perAddress: 0)
    }

    let settings: Settings
    private let addresses: AddressRateLimiter?
    private let apps: RateLimiter

    /// `apps` leases each app's minute quota (`RateLimiter` with 60-second windows over
    /// `PostgresQuotaStore` over `.appMinutes`); it is not asked when `perApp` is 0.
    package init(settings: Settings, apps: RateLimiter) {
        self.settings = settings
        self.addresses = settings.perAddress > 0 ? AddressRateLimiter(limit: settings.perAddress) : nil
        self.apps = apps
    }

    /// Nil when the limit is off or the address unknown (a request that did not come over a socket).
    func admit(address: IPAddress?, now: Date) -> RateLimitDecision? {
        guard let addresses, let address else { return nil }
        return addresses.acquire(address, now: now)
    }

    func admit(app: App, now: Date) async throws -> RateLimitDecision? {
        guard settings.perApp > 0 else { return nil }
        return try await apps.acquire(workspaceID: app.id, limit: settings.perApp, now: now)
    }

    /// The 429s; `SDKCallGate` adds the refusing decision's headers, as it does to every answer. Both
    /// SDK routes count against the same limits; the message names the one called.
    static func addressRefusal(_ decision: RateLimitDecision, route: SDKRoute) -> APIError {
        APIError(
            .tooManyRequests,
            "Rate limit exceeded: at most \(decision.limit) calls to \(route.path) per minute from one address; retry after \(decision.retryAfter) seconds"
        )
    }

    static func appRefusal(_ decision: RateLimitDecision, route: SDKRoute) -> APIError {
        APIError(
            .tooManyRequests,
            "Rate limit exceeded: this app may \(route.calls(decision.limit)) per minute; retry after \(decision.retryAfter) seconds")
    }
}

extension RateLimitDecision {
    /// Of two limits a call counted against, the one to show: the refusing one, else the nearer to
    /// running out.
    static func shown(_ first: RateLimitDecision?, _ second: RateLimitDecision?) -> RateLimitDecision? {
        guard let first else { return second }
        guard let second else { return first }
        if !first.allowed { return first }
        if !second.allowed { return second }
        return second.remaining < first.remaining ? second : first
    }
}
