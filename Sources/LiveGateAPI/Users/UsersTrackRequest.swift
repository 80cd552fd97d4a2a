import APNsCore
import Foundation
import HTTPTypes
import LiveGateDomain

/// A `POST /users/track` body, read as Braze reads it: up to 75 `attributes` objects, each naming a user
/// (`external_id` or `user_alias`) and setting custom attributes. Each object that cannot be applied is
/// an entry of `errors` in Braze's shape (`type`, `input_array`, `index`); the controller then applies
/// none, so a call is taken whole or not at all, as openapi.yaml states it.
struct UsersTrackRequest {
    static let maximumObjects = 75
    static let maximumStringLength = 255
    static let maximumArrayLength = 500
    static let maximumNumber = CustomAttributeChange.maximumNumber

    /// A Braze minor error: which object of which array, and why.
    struct ObjectError: Equatable {
        var type: String
        var index: Int
    }

    var updates: [(index: Int, update: UserAttributesUpdate)]
    var errors: [ObjectError]

    static let reservedKeys: Set<String> = ["external_id", "user_alias", "braze_id", "_update_existing_only"]

    static func parse(_ body: JSONObject) throws(APIError) -> UsersTrackRequest {
        for refused in ["events", "purchases"] {
            if let value = body[refused], !(value.isNull || value.arrayValue?.isEmpty == true) {
                throw APIError(
                    .badRequest, "Invalid request: \(refused) are not supported",
                    errors: ["\(refused) are not stored by LiveGate: it keeps users' custom attributes only; leave \(refused) out"])
            }
        }
        guard let objects = body["attributes"]?.arrayValue, !objects.isEmpty else {
            throw APIError(
                .badRequest, "Invalid request: attributes is required",
                errors: ["attributes is required: an array of 1 to \(maximumObjects) user attribute objects"])
        }
        guard objects.count <= maximumObjects else {
            throw APIError(
                .badRequest, "Invalid request: too many attributes objects",
                errors: ["attributes takes at most \(maximumObjects) objects per call, got \(objects.count)"])
        }
        var request = UsersTrackRequest(updates: [], errors: [])
        for (index, value) in objects.enumerated() {
            switch update(from: value) {
            case .success(let update): request.updates.append((index, update))
            case .failure(let problem): request.errors.append(ObjectError(type: problem.reason, index: index))
            }
        }
        return request
    }

    struct Problem: Error {
        var reason: String
    }

    static func update(from value: JSONValue) -> Result<UserAttributesUpdate, Problem> {
        guard let object = value.objectValue else { return .failure(Problem(reason: "each attributes entry must be an object")) }
        if object["braze_id"] != nil {
            return .failure(Problem(reason: "'braze_id' is not supported: name the user by 'external_id' or 'user_alias'"))
        }
        let needed = "'external_id' or 'user_alias' (alias_name and alias_label) is required: strings of 1 to 512 characters"
        var alias: UserAlias?
        if let given = object["user_alias"] {
            guard let fields = given.objectValue, let name = fields["alias_name"]?.stringValue,
                let label = fields["alias_label"]?.stringValue, Self.isName(name), Self.isName(label)
            else { return .failure(Problem(reason: needed)) }
            alias = UserAlias(label: label, name: name)
        }
        let user: UserReference
        if let given = object["external_id"] {
            guard let externalID = given.stringValue, Self.isName(externalID) else { return .failure(Problem(reason: needed)) }
            user = .externalID(externalID)
        } else if let alias {
            user = .alias(alias)
        } else {
            return .failure(Problem(reason: needed))
        }
        var updateExistingOnly = false
        if let flag = object["_update_existing_only"] {
            guard let value = flag.boolValue else { return .failure(Problem(reason: "'_update_existing_only' must be a boolean")) }
            updateExistingOnly = value
        }
        var changes: [(name: String, change: CustomAttributeChange)] = []
        for member in object.members where !reservedKeys.contains(member.key) {
            guard (1...255).contains(member.key.unicodeScalars.count), !member.key.utf8.contains(0) else {
                return .failure(Problem(reason: "custom attribute names are 1 to 255 characters, without NUL"))
            }
            switch change(member.value) {
            case .success(let change): changes.append((member.key, change))
            case .failure(let problem): return .failure(Problem(reason: "custom attribute '\(member.key.prefix(64))': \(problem.reason)"))
            }
        }
        return .success(UserAttributesUpdate(user: user, updateExistingOnly: updateExistingOnly, changes: changes))
    }

    /// An external id, alias name or label: 1 to 512 characters, without NUL.
    static func isName(_ text: String) -> Bool {
        (1...512).contains(text.unicodeScalars.count) && !text.utf8.contains(0)
    }

    static func change(_ value: JSONValue) -> Result<CustomAttributeChange, Problem> {
        if value.isNull { return .success(.remove) }
        if let bool = value.boolValue { return .success(.boolean(bool)) }
        if let lexeme = value.numberLexeme {
            guard let number = Double(lexeme), number.magnitude <= maximumNumber else {
                return .failure(Problem(reason: "numbers are at most 1e300 either side of zero"))
            }
            return .success(.number(number))
        }
        if let text = value.stringValue { return string(text) }
        if let array = value.arrayValue { return strings(array).map { .array($0) } }
        guard let object = value.objectValue else { return .failure(Problem(reason: "an unsupported value")) }
        if object.count == 1, let time = object["$time"]?.stringValue {
            guard let milliseconds = ISO8601Timestamp.epochMilliseconds(from: time) else {
                return .failure(Problem(reason: "$time must be an ISO 8601 date-time with a time zone"))
            }
            return .success(.time(Date(timeIntervalSince1970: Double(milliseconds) / 1_000), text: time))
        }
        let keys = Set(object.members.map(\.key))
        guard !keys.isEmpty, keys.isSubset(of: ["add", "remove"]) else {
            return .failure(
                Problem(
                    reason: "an object must be {\"add\": [...], \"remove\": [...]} or {\"$time\": ...}; nested attributes are not supported"
                ))
        }
        var add: [String] = []
        var remove: [String] = []
        for (key, target) in [("add", 0), ("remove", 1)] {
            guard let given = object[key] else { continue }
            guard let array = given.arrayValue else { return .failure(Problem(reason: "'\(key)' must be an array of strings")) }
            switch strings(array) {
            case .success(let values): if target == 0 { add = values } else { remove = values }
            case .failure(let problem): return .failure(problem)
            }
        }
        return .success(.arrayChange(add: add, remove: remove))
    }

    /// A string, or a time when it reads as an ISO 8601 date-time with a zone (Braze's dates).
    static func string(_ text: String) -> Result<CustomAttributeChange, Problem> {
        guard text.unicodeScalars.count <= maximumStringLength, !text.utf8.contains(0) else {
            return .failure(Problem(reason: "strings are at most \(maximumStringLength) characters, without NUL"))
        }
        if text.count >= 20, let milliseconds = ISO8601Timestamp.epochMilliseconds(from: text) {
            return .success(.time(Date(timeIntervalSince1970: Double(milliseconds) / 1_000), text: text))
        }
        return .success(.string(text))
    }

    static func strings(_ array: [JSONValue]) -> Result<[String], Problem> {
        guard array.count <= maximumArrayLength else {
            return .failure(Problem(reason: "arrays hold at most \(maximumArrayLength) values"))
        }
        var values: [String] = []
        for element in array {
            guard let text = element.stringValue, text.unicodeScalars.count <= maximumStringLength, !text.utf8.contains(0) else {
                return .failure(Problem(reason: "array values are strings of at most \(maximumStringLength) characters"))
            }
            values.append(text)
        }
        return .success(values)
    }
}
