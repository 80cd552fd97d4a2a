import LiveGateDomain
/// What `GET /live_activity/activities/{activity_id}` asks for: the app, and which page of devices.
struct ActivityQuery: Equatable {
    static let defaultLimit = 100
    static let maximumLimit = 1_000

    var appIdentifier: String
    var limit: Int
    var cursor: DeviceCursor?

    static func parse(_ queryString: String?) throws -> ActivityQuery {
        var parameters = QueryParameters(queryString, allowed: ["app_id", "limit", "cursor"])
        let app = parameters.text("app_id", required: true)
        let limit = parameters.limit(default: defaultLimit, maximum: maximumLimit)
        var cursor: DeviceCursor?
        if let token = parameters.text("cursor", maxLength: DeviceCursor.maximumTokenLength) {
            cursor = DeviceCursor(token: token)
            if cursor == nil { parameters.problem("cursor is not one this endpoint gave out") }
        }
        try parameters.throwIfAny()
        return ActivityQuery(appIdentifier: app ?? "", limit: limit, cursor: cursor)
    }
}
