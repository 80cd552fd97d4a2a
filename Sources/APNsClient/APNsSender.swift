import APNsCore
import Foundation
import UUIDText

/// Sends Live Activity pushes to devices and broadcast channels: signs with the destination's
/// provider token, posts over HTTP/2 to its endpoint and returns what APNs answered. When APNs rejects
/// the provider token it renews the token once and sends again. Call `shutdown()` before dropping it: its clients own
/// threads and connections.
public final class APNsSender: Sendable {
    let tokens: ProviderTokenCache
    let connections: APNsConnections
    let metrics = APNsMetrics()
    private let sharedHeaders = SharedPushHeaders()

    public init(tokens: ProviderTokenCache = ProviderTokenCache(), transport: HTTP2ClientConfiguration = .init()) {
        self.tokens = tokens
        // Pushes echo `apns-id`, broadcasts `apns-request-id`; a 429 may say when to try again
        // (`retry-after`): nothing else is read.
        self.connections = APNsConnections(
            configuration: transport, responseHeaderNames: ["apns-id", "apns-request-id", "retry-after"])
    }

    public func send(_ push: LiveActivityPush, to destination: APNsDestination) async -> APNsSendResult {
        await send([push], to: destination)[0]
    }

    /// Sends pushes to one destination concurrently and returns how each ended, in order. The client,
    /// provider token and shared headers are looked up once for all of them; pushes whose provider
    /// token APNs rejects are sent again, once, with a renewed token.
    public func send(_ pushes: [LiveActivityPush], to destination: APNsDestination) async -> [APNsSendResult] {
        let client = connections.client(baseURL: destination.endpoint.baseURL, teamID: destination.credentials.teamID)
        do {
            let outcomes = try await tokens.sendRenewingOnce(
                count: pushes.count, credentials: destination.credentials, rejectsToken: ProviderTokenCache.rejectsToken
            ) { token, indices in
                await send(pushes, indices: indices, to: destination, client: client, token: token)
            }
            metrics.record(outcomes, kind: .device)
            return APNsSendResult.results(of: consume outcomes)
        } catch {
            return pushes.map { _ in .unsignable(error) }
        }
    }

    /// `pushes[indices]` as one batch; the answers come back in `indices` order.
    private func send(
        _ pushes: [LiveActivityPush], indices: [Int], to destination: APNsDestination, client: CurlHTTP2Client,
        token: ProviderToken
    ) async -> [Result<HTTP2Response, HTTP2TransportError>] {
        let deviceURL = destination.endpoint.baseURL + "/3/device/"
        // A batch is normally one message's pushes: their shared lines are looked up once, not per push.
        var shared: (priority: APNsPriority, expiration: Int64, lines: SharedHeaderLines)?
        // Each push's fields are read in place: copying a push would retain its token and payload.
        return await client.send(batchOf: indices.count) { position in
            let index = indices[position]
            let priority = pushes[index].priority
            let expiration = pushes[index].expiration
            if shared?.priority != priority || shared?.expiration != expiration {
                shared = (
                    priority, expiration,
                    sharedHeaders.lines(token: token, bundleID: destination.bundleID, priority: priority, expiration: expiration)
                )
            }
            return HTTP2Request(
                url: deviceURL + pushes[index].deviceToken.hex,
                headers: [("apns-id", pushes[index].apnsID.lowercasedText)], sharedHeaders: shared?.lines,
                body: pushes[index].payload)
        }
    }

    /// Closes every connection and stops the clients' threads.
    public func shutdown() async {
        await connections.shutdown()
    }
}
