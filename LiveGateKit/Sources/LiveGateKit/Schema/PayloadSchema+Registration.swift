import Foundation

@available(iOS 16.0, macOS 13.0, *)
extension PayloadSchema {
    /// The body of `PUT /live_activity/types/{attributes_type}` (permission `live_activity.types`): the
    /// schemas derived (`derive(from:)`) from an example of the type's attributes and of its
    /// `ContentState`, for the app `appID`, in `mode`:
    /// `{"app_id":…,"attributes":SCHEMA,"content_state":SCHEMA,"mode":"enforce"}`, keys sorted.
    ///
    /// Generic over `Encodable`, so it runs where ActivityKit does not (a Linux CI, a test on macOS):
    /// pass the app's own attributes and content-state types. The path's `attributes_type` is the
    /// type's name, as `LiveActivities.attributesTypeName(of:)` gives it.
    public static func registration<Attributes: Encodable, ContentState: Encodable>(
        appID: String, attributes: Attributes, contentState: ContentState, mode: Mode
    ) throws -> Data {
        let body = RegistrationBody(
            appID: appID, attributes: try derive(from: attributes), contentState: try derive(from: contentState), mode: mode)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(body)
    }
}

/// `PUT /live_activity/types/{attributes_type}`'s body.
@available(iOS 16.0, macOS 13.0, *)
private struct RegistrationBody: Encodable {
    var appID: String
    var attributes: PayloadSchema
    var contentState: PayloadSchema
    var mode: PayloadSchema.Mode

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case attributes
        case contentState = "content_state"
        case mode
    }
}
