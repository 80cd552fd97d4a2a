import APNsCore
import Foundation
import UUIDText

/// Creates, reads, deletes and lists an app's broadcast channels on its endpoint's management host
/// (`APNsEndpoint.managementBaseURL`), signed with the app's provider token; a rejected provider token
/// is renewed once, as for pushes. Call `shutdown()` before dropping it: its clients own threads.
public final class APNsChannelManager: Sendable {
    private let tokens: ProviderTokenCache
    private let connections: APNsConnections

    /// Share `tokens` with the app's `APNsSender`: one key, one provider token (APNs refuses tokens
    /// renewed too often).
    public init(tokens: ProviderTokenCache = ProviderTokenCache(), transport: HTTP2ClientConfiguration = .init()) {
        self.tokens = tokens
        self.connections = APNsConnections(
            configuration: transport, responseHeaderNames: ["apns-request-id", "apns-channel-id"])
    }

    /// `POST /1/apps/<bundle id>/channels`: a new channel; APNs answers 201 with its `apns-channel-id`.
    public func create(
        _ settings: ChannelSettings, for destination: APNsDestination, requestID: UUID = UUID()
    ) async -> ChannelManagementResult {
        await perform(
            "POST", BroadcastPaths.channels(bundleID: destination.bundleID),
            headers: [("content-type", "application/json")], body: settings.json.serialized(),
            for: destination, requestID: requestID)
    }

    /// `GET /1/apps/<bundle id>/channels`: the channel's settings, in the answer's body.
    public func read(_ channel: ChannelID, for destination: APNsDestination, requestID: UUID = UUID()) async -> ChannelManagementResult {
        await perform(
            "GET", BroadcastPaths.channels(bundleID: destination.bundleID), headers: [("apns-channel-id", channel.rawValue)],
            for: destination, requestID: requestID)
    }

    /// `DELETE /1/apps/<bundle id>/channels`: APNs answers 204 once the channel is gone.
    public func delete(_ channel: ChannelID, for destination: APNsDestination, requestID: UUID = UUID()) async -> ChannelManagementResult {
        await perform(
            "DELETE", BroadcastPaths.channels(bundleID: destination.bundleID), headers: [("apns-channel-id", channel.rawValue)],
            for: destination, requestID: requestID)
    }

    /// `GET /1/apps/<bundle id>/all-channels`: every channel of the app, in the answer's body.
    public func list(for destination: APNsDestination, requestID: UUID = UUID()) async -> ChannelManagementResult {
        await perform("GET", BroadcastPaths.allChannels(bundleID: destination.bundleID), for: destination, requestID: requestID)
    }

    private func perform(
        _ method: String, _ path: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        for destination: APNsDestination, requestID: UUID
    ) async -> ChannelManagementResult {
        let baseURL = destination.endpoint.managementBaseURL
        let client = connections.client(baseURL: baseURL, teamID: destination.credentials.teamID)
        let request = HTTP2Request(
            url: baseURL + path, method: method,
            headers: headers + [("apns-request-id", requestID.lowercasedText)], body: body)
        do {
            return ChannelManagementResult(try await tokens.sendSigned(request, on: client, credentials: destination.credentials))
        } catch {
            return .unsignable(error)
        }
    }

    /// Closes every connection and stops the clients' threads.
    public func shutdown() async {
        await connections.shutdown()
    }
}

extension ChannelManagementResult {
    init(_ outcome: Result<HTTP2Response, HTTP2TransportError>) {
        switch outcome {
        case .success(let answer):
            self = .answered(
                ChannelManagementResponse(
                    response: APNsResponse(answer), channelID: answer.headers["apns-channel-id"].map(ChannelID.init(rawValue:)),
                    body: answer.body.isEmpty ? nil : try? JSONValue.parse(answer.body)))
        case .failure(let error):
            self = .unreachable(error)
        }
    }
}
