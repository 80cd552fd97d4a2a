import APNsCore

extension APNsSender {
    /// Sends one push to every device subscribed to a channel (`POST /4/broadcasts/apps/<bundle id>`
    /// on the destination's push host) and returns what APNs answered, its `apns-request-id` included.
    /// As for device pushes, a rejected provider token is renewed once and the broadcast sent again.
    public func broadcast(_ broadcast: LiveActivityBroadcast, to destination: APNsDestination) async -> APNsSendResult {
        let client = connections.client(baseURL: destination.endpoint.baseURL, teamID: destination.credentials.teamID)
        let url = destination.endpoint.baseURL + BroadcastPaths.broadcast(bundleID: destination.bundleID)
        let request = HTTP2Request(url: url, headers: broadcast.headers.fields, body: broadcast.payload)
        do {
            let outcome = try await tokens.sendSigned(request, on: client, credentials: destination.credentials)
            metrics.record([outcome], kind: .broadcast)
            return APNsSendResult(outcome)
        } catch {
            return .unsignable(error)
        }
    }
}
