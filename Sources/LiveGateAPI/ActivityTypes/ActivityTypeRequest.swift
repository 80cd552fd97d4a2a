import APNsCore
import LiveGateDomain

/// A validated `PUT /live_activity/types/{attributes_type}` body: the app, its schemas (compiled, so a
/// schema that is not one is refused here, naming where) and the mode (`enforce` when not given).
struct ActivityTypeRequest {
    var appID: String
    var contentState: PayloadSchema
    var attributes: PayloadSchema?
    var mode: PayloadCheckMode

    static func parse(_ body: JSONObject) throws(APIError) -> ActivityTypeRequest {
        let problems = ValidationProblems()
        let fields = FieldReader(body, problems: problems)
        let appID = fields.string("app_id", required: true, maxLength: 128)
        let contentState = schema(body["content_state"], at: "content_state", required: true, problems: problems)
        let attributes = schema(body["attributes"], at: "attributes", required: false, problems: problems)
        var mode = PayloadCheckMode.enforce
        if let text = fields.string("mode", maxLength: 16) {
            if let known = PayloadCheckMode.all.first(where: { $0.rawValue == text }) {
                mode = known
            } else {
                problems.add("mode must be 'enforce' or 'warn', got '\(text)'")
            }
        }
        try problems.throwIfAny()
        return ActivityTypeRequest(appID: appID!, contentState: contentState!, attributes: attributes, mode: mode)
    }

    private static func schema(_ value: JSONValue?, at path: String, required: Bool, problems: ValidationProblems) -> PayloadSchema? {
        guard let value, !value.isNull else {
            if required { problems.add("\(path) is required: the JSON schema of the type's \(path)") }
            return nil
        }
        do {
            return try PayloadSchema(parsing: value, at: path)
        } catch {
            problems.add(error.description)
            return nil
        }
    }
}
