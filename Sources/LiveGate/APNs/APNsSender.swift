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
        guard let credentials = app.credentials else { return .noCredential }
        let client = connections.client(endpoint: app.endpoint, teamID: credentials.teamID)
        var token: ProviderToken
        do {
            token = try tokens.token(for: credentials)
        } catch {
            return .unusableCredential("\(error)")
        }
        var renewed = false
        while true {
            let request = HTTP2Request(
                url: app.endpoint.baseURL + "/3/device/" + push.deviceToken.hex,
                headers: [("apns-id", push.apnsID.uuidString.lowercased())],
                sharedHeaders: sharedHeaders.lines(
                    token: token, bundleID: app.bundleID, priority: push.priority,
                    expiration: Int64(push.expiresAt.timeIntervalSince1970)),
                body: push.payload)
            let outcome: APNsOutcome
            do {
                let response = try await client.send(request)
                outcome = APNsOutcome.classify(status: response.status, body: response.body, apnsID: response.headers["apns-id"])
            } catch let error as HTTP2TransportError {
                return .transportFailed(error)
            } catch {
                return .transportFailed(HTTP2TransportError(.connectionLost, "\(error)"))
            }
            guard case .providerTokenRejected = outcome, !renewed else { return .answered(outcome) }
            // Once: a token renewed less than 20 minutes ago and rejected again means the key is wrong.
            guard let fresh = try? tokens.renew(token, for: credentials) else { return .answered(outcome) }
            token = fresh
            renewed = true
        }
    }

    /// Closes every connection and stops the clients' threads.
    public func shutdown() async {
        await connections.shutdown()
    }
}
