/// What APNs answered to a channel management request: the status, `apns-request-id` and error
/// reason (as for any APNs answer), the `apns-channel-id` it named, and the body, which reading a
/// channel fills with its settings and listing with the app's channels.
public struct ChannelManagementResponse: Sendable, Equatable {
    public var response: APNsResponse
    public var channelID: ChannelID?
    /// The body parsed, when it was JSON.
    public var body: JSONValue?

    public init(response: APNsResponse, channelID: ChannelID? = nil, body: JSONValue? = nil) {
        self.response = response
        self.channelID = channelID
        self.body = body
    }

    public var status: Int { response.status }
    public var reason: APNsReason? { response.reason }
    public var requestID: String? { response.requestID }

    /// The channel's settings, if the body holds them (the answer to reading a channel).
    public var settings: ChannelSettings? { body.flatMap { try? ChannelSettings(json: $0) } }

    /// The app's channels, if the body lists them (the answer to listing).
    public var channels: ChannelList? { body.flatMap { ChannelList(json: $0) } }
}
