import APNsCore
import Foundation

/// Sends Live Activity pushes (SPEC §7): signs with the app's provider token, posts over HTTP/2 to the
/// app's endpoint, classifies the answer, and when APNs rejects the provider token renews it once and
/// sends again. Call `shutdown()` before dropping it: its clients own threads and connections.
public final class APNsSender: Sendable {
    private let tokens: ProviderTokenCache
    private let connections: APNsConnections
    private let sharedHeaders = SharedPushHeaders()

    public init(tokens: ProviderTokenCache = ProviderTokenCache(), transport: HTTP2ClientConfiguration = .init()) {
        self.tokens = tokens
        self.connections = APNsConnections(configuration: transport)
    }

    public func send(_ push: LiveActivityPush, app: App) async -> APNsDelivery {
        await send([push], app: app)[0]
    }

    /// Sends pushes of one app concurrently and returns how each ended, in order. The client, provider
    /// token and shared headers are looked up once for all of them; pushes whose provider token APNs
    /// rejects are sent again, once, with a renewed token.
    public func send(_ pushes: [LiveActivityPush], app: App) async -> [APNsDelivery] {
        guard let credentials = app.credentials else { return pushes.map { _ in .noCredential } }
        let client = connections.client(endpoint: app.endpoint, teamID: credentials.teamID)
        var token: ProviderToken
        do {
            token = try tokens.token(for: credentials)
        } catch {
            return pushes.map { _ in .unusableCredential("\(error)") }
        }
        var deliveries = await send(pushes, indices: Array(pushes.indices), app: app, client: client, token: token)
        // Once: a token renewed less than 20 minutes ago and rejected again means the key is wrong.
        let rejected = pushes.indices.filter {
            if case .answered(.providerTokenRejected) = deliveries[$0] { return true }
            return false
        }
        guard !rejected.isEmpty, let fresh = try? tokens.renew(token, for: credentials) else { return deliveries }
        token = fresh
        let retried = await send(pushes, indices: rejected, app: app, client: client, token: token)
        for (index, delivery) in zip(rejected, retried) { deliveries[index] = delivery }
        return deliveries
    }

    /// `pushes[indices]` as one batch; the answers come back in `indices` order.
    private func send(
        _ pushes: [LiveActivityPush], indices: [Int], app: App, client: CurlHTTP2Client, token: ProviderToken
    ) async -> [APNsDelivery] {
        var requests: [HTTP2Request] = []
        requests.reserveCapacity(indices.count)
        // A batch is normally one message's pushes: their shared lines are looked up once, not per push.
        var shared: (priority: APNsPriority, expiration: Int64, lines: SharedHeaderLines)?
        for index in indices {
            let push = pushes[index]
            let expiration = Int64(push.expiresAt.timeIntervalSince1970)
            if shared?.priority != push.priority || shared?.expiration != expiration {
                shared = (
                    push.priority, expiration,
                    sharedHeaders.lines(token: token, bundleID: app.bundleID, priority: push.priority, expiration: expiration)
                )
            }
            requests.append(
                HTTP2Request(
                    url: app.endpoint.baseURL + "/3/device/" + push.deviceToken.hex,
                    headers: [("apns-id", push.apnsID.uuidString.lowercased())], sharedHeaders: shared?.lines,
                    body: push.payload))
        }
        return await client.send(batch: requests).map { result in
            switch result {
            case .success(let response):
                .answered(APNsOutcome.classify(status: response.status, body: response.body, apnsID: response.headers["apns-id"]))
            case .failure(let error):
                .transportFailed(error)
            }
        }
    }

    /// Closes every connection and stops the clients' threads.
    public func shutdown() async {
        await connections.shutdown()
    }
}
