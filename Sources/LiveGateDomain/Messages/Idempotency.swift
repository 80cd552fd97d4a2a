import Foundation

/// An `Idempotency-Key` and a fingerprint of the request it came with.
package struct IdempotencyClaim: Sendable, Equatable {
    /// Keys are kept this long; after that the same key starts a new request.
    package static let retention: Duration = .seconds(24 * 60 * 60)
    package static let maximumKeyBytes = 255

    package let key: String
    /// SHA-256 of method, path and body.
    package let requestHash: [UInt8]

    package init(key: String, requestHash: [UInt8]) {
        self.key = key
        self.requestHash = requestHash
    }
}

/// The answer given to a request, kept so a retry with the same key gets it again.
package struct StoredResponse: Sendable, Equatable {
    package let status: Int
    package let body: String

    package init(status: Int, body: String) {
        self.status = status
        self.body = body
    }
}

/// What committing a request under an idempotency key came to.
package enum IdempotentOutcome: Sendable, Equatable {
    /// Committed now; this is the answer.
    case committed(StoredResponse)
    /// The key was used before with the same request: its first answer, and nothing new was committed.
    case replayed(StoredResponse)
    /// The key was used before with a different request.
    case keyReused
}
