import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET /push_channel`: the broadcast channel an activity's updates go to, if it has one.
@available(iOS 16.0, macOS 13.0, *)
struct ChannelLookup: Sendable {
    let gatewayURL: URL
    let appID: String
    let transport: any LiveGateTransport

    /// Nil when the activity has no channel (404); throws when the gateway cannot say.
    func channelID(forActivity activityID: String) async throws -> String? {
        var components = URLComponents(url: gatewayURL.appendingPathComponent("push_channel"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "app_id", value: appID), URLQueryItem(name: "activity_id", value: activityID)]
        guard let url = components?.url else {
            throw LiveGateError(code: .activityRequestFailed, message: "the channel lookup's URL could not be made", route: "/push_channel")
        }
        let (data, response) = try await transport.perform(URLRequest(url: url))
        switch response.statusCode {
        case 200:
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let id = object["channel_id"] as? String
            else {
                throw LiveGateError(
                    code: .activityRequestFailed, message: "the channel lookup answered without a channel_id", status: 200,
                    route: "/push_channel")
            }
            return id
        case 404:
            return nil
        default:
            throw LiveGateError(
                code: .activityRequestFailed, message: ReportSender.message(data) ?? "the channel lookup failed",
                status: response.statusCode,
                route: "/push_channel")
        }
    }
}
