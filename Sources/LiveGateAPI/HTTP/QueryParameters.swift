import Foundation
import HTTPTypes
import LiveGateDomain

/// Reads a GET endpoint's query string, collecting every problem so one 400 names them all: each
/// parameter at most once, 1 to 256 characters (no NUL), and no parameter the endpoint does not take.
struct QueryParameters {
    private let pairs: [(name: String, value: String)]
    private(set) var problems: [String] = []

    init(_ queryString: String?, allowed: Set<String>) {
        pairs = FormQuery.pairs(queryString)
        for name in Set(pairs.map(\.name)) where !allowed.contains(name) {
            problems.append("\(name) is not a parameter of this endpoint")
        }
    }

    mutating func problem(_ text: String) { problems.append(text) }

    /// `maxLength`: in characters; 256 unless the parameter carries more (a cursor holding a device id).
    mutating func text(_ name: String, required: Bool = false, maxLength: Int = 256) -> String? {
        let values = pairs.filter { $0.name == name }.map(\.value)
        guard let value = values.first else {
            if required { problems.append("\(name) is required") }
            return nil
        }
        if values.count > 1 { problems.append("\(name) may be given once") }
        if value.isEmpty || value.unicodeScalars.count > maxLength || value.utf8.contains(0) {
            problems.append("\(name) must be 1 to \(maxLength) characters, without NUL")
            return nil
        }
        return value
    }

    /// `limit`: a page size from 1 to `maximum`, `defaultLimit` when absent.
    mutating func limit(default defaultLimit: Int, maximum: Int) -> Int {
        guard let limit = text("limit") else { return defaultLimit }
        guard let value = Int(limit), (1...maximum).contains(value) else {
            problems.append("limit must be a whole number from 1 to \(maximum)")
            return defaultLimit
        }
        return value
    }

    /// `cursor`: a token this endpoint gave out as `next_cursor`.
    mutating func cursor() -> KeysetCursor? {
        guard let token = text("cursor") else { return nil }
        let cursor = KeysetCursor(token: token)
        if cursor == nil { problems.append("cursor is not one this endpoint gave out") }
        return cursor
    }

    /// Throws the 400 naming every problem, if any.
    func throwIfAny() throws {
        guard problems.isEmpty else {
            throw APIError(.badRequest, "Invalid request: " + problems.joined(separator: "; "), errors: problems.sorted())
        }
    }
}
