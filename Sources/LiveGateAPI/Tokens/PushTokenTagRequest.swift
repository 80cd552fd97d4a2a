import APNsCore
import LiveGateDomain

/// A validated `POST /push_token_tag` body.
struct PushTokenTagRequest: SDKCall {
    var appID: String
    var registration: TokenRegistration
    var externalID: String? { registration.externalID }

    static func parse(_ body: JSONObject) throws(APIError) -> PushTokenTagRequest {
        let problems = ValidationProblems()
        let fields = FieldReader(body, problems: problems)
        let appID = fields.string("app_id", required: true, maxLength: 128)
        let deviceID = fields.string("device_id", required: true, maxLength: 256)
        let user = Self.user(fields)

        let hasTag = fields.has("tag")
        let hasType = fields.has("activity_attributes_type")
        var kind: TokenRegistration.Kind?
        var token: PushToken?
        // Beside a tag, activity_attributes_type names the activity's type (what its updates are checked
        // against); alone, it is the type a push-to-start token is for.
        var attributesType: String?
        switch (hasTag, hasType) {
        case (true, true) where fields.has("push_to_start_token"):
            problems.add("give tag with push_token, or activity_attributes_type with push_to_start_token, not both")
        case (false, false):
            problems.add(
                "tag (with push_token) or activity_attributes_type (with push_to_start_token) is required")
        case (true, _):
            if let tag = fields.string("tag", maxLength: CommonMessageFields.maximumActivityIDLength) {
                kind = .activity(tag: tag)
            }
            if hasType { attributesType = fields.string("activity_attributes_type", maxLength: 256) }
            token = Self.token(fields, "push_token")
            Self.refuse(fields, "push_to_start_token", goesWith: "activity_attributes_type")
        case (false, true):
            if let type = fields.string("activity_attributes_type", maxLength: 256) {
                kind = .pushToStart(attributesType: type)
            }
            token = Self.token(fields, "push_to_start_token")
            Self.refuse(fields, "push_token", goesWith: "tag")
        }
        try problems.throwIfAny()
        return PushTokenTagRequest(
            appID: appID!,
            registration: TokenRegistration(
                kind: kind!, deviceID: deviceID!, token: token, user: user, attributesType: attributesType))
    }

    /// Whose device it is. `external_id` left out keeps the registration's user (the SDK may not know it
    /// yet); an explicit `null` says no user is signed in, and detaches it. A `user_alias` names the user
    /// either way: beside a `null` external id, the alias wins.
    private static func user(_ fields: FieldReader) -> TokenRegistration.User {
        let externalID = fields.string("external_id", maxLength: 512)
        let alias = fields.nested("user_alias")?.userAlias()
        if externalID == nil, alias == nil, fields.isNull("external_id") { return .signedOut }
        return .named(externalID: externalID, alias: alias)
    }

    /// A token beside the wrong key would be dropped without a word: refused instead.
    private static func refuse(_ fields: FieldReader, _ field: String, goesWith key: String) {
        if fields.has(field) { fields.problems.add("\(field) goes with \(key), which this call does not give") }
    }

    /// The token, or nil for an explicit `null` (remove). Leaving the field out is a mistake, not a removal.
    private static func token(_ fields: FieldReader, _ field: String) -> PushToken? {
        guard let value = fields.object[field] else {
            fields.problems.add("\(field) is required: a hex token, or null to remove the registration")
            return nil
        }
        if value.isNull { return nil }
        guard let text = value.stringValue, let token = PushToken(hex: text) else {
            fields.problems.add(
                "\(field) must be the token as hex: an even number of 0-9/a-f digits, at most \(PushToken.maximumBytes * 2)")
            return nil
        }
        return token
    }
}
