import APNsCore
import Foundation

/// Sends Live Activity pushes (SPEC §7): signs with the destination's provider token, posts over
/// HTTP/2 to its endpoint and returns what APNs answered. When APNs rejects the provider token it
/// renews the token once and sends again. Call `shutdown()` before dropping it: its clients own
/// threads and connections.
public final class APNsSender: Sendable {
    private let tokens: ProviderTokenCache
    private let connections: APNsConnections
    private let sharedHeaders = SharedPushHeaders()

    public init(tokens: ProviderTokenCache = ProviderTokenCache(), transport: HTTP2ClientConfiguration = .init()) {
        self.tokens = tokens
        self.connections = APNsConnections(configuration: transport)
    }

    public func send(_ push: LiveActivityPush, to destination: APNsDestination) async -> APNsSendResult {
        await send([push], to: destination)[0]
    }

    /// Sends pushes to one destination concurrently and returns how each ended, in order. The client,
    /// provider token and shared headers are looked up once for all of them; pushes whose provider
    /// token APNs rejects are sent again, once, with a renewed token.
    public func send(_ pushes: [LiveActivityPush], to destination: APNsDestination) async -> [APNsSendResult] {
        let credentials = destination.credentials
        let client = connections.client(endpoint: destination.endpoint, teamID: credentials.teamID)
        var token: ProviderToken
        do {
            token = try tokens.token(for: credentials)
        } catch {
            return pushes.map { _ in .unsignable(error) }
        }
        var results = await send(pushes, indices: Array(pushes.indices), to: destination, client: client, token: token)
        // Once: a token renewed less than 20 minutes ago and rejected again means the key is wrong.
        let rejected = pushes.indices.filter {
            if case .answered(let response) = results[$0] { return response.rejectsProviderToken }
            return false
        }
        guard !rejected.isEmpty, let fresh = try? tokens.renew(token, for: credentials) else { return results }
        token = fresh
        let retried = await send(pushes, indices: rejected, to: destination, client: client, token: token)
        for (index, result) in zip(rejected, retried) { results[index] = result }
        return results
    }

    /// `pushes[indices]` as one batch; the answers come back in `indices` order.
    private func send(
        _ pushes: [LiveActivityPush], indices: [Int], to destination: APNsDestination, client: CurlHTTP2Client,
        token: ProviderToken
    ) async -> [APNsSendResult] {
        var requests: [HTTP2Request] = []
        requests.reserveCapacity(indices.count)
        let deviceURL = destination.endpoint.baseURL + "/3/device/"
        // A batch is normally one message's pushes: their shared lines are looked up once, not per push.
        var shared: (priority: APNsPriority, expiration: Int64, lines: SharedHeaderLines)?
        for index in indices {
            let push = pushes[index]
            let expiration = push.expiration
            if shared?.priority != push.priority || shared?.expiration != expiration {
                shared = (
                    push.priority, expiration,
                    sharedHeaders.lines(
                        token: token, bundleID: destination.bundleID, priority: push.priority, expiration: expiration)
                )
            }
            requests.append(
                HTTP2Request(
                    url: deviceURL + push.deviceToken.hex,
                    headers: [("apns-id", push.apnsID.uuidString.lowercased())], sharedHeaders: shared?.lines,
                    body: push.payload))
        }
        return await client.send(batch: requests).map { result in
            switch result {
            case .success(let response):
                .answered(APNsResponse(status: response.status, body: response.body, apnsID: response.headers["apns-id"]))
            case .failure(let error):
                .unreachable(error)
            }
        }
    }

    /// Closes every connection and stops the clients' threads.
    public func shutdown() async {
        await connections.shutdown()
    }
}
