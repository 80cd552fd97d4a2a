/// An error that can say whether the database could not be reached (asking again later may work), as
/// opposed to a statement it refused. The store's errors answer it; the API answers 503 with
/// `Retry-After` for those that say so, and delivery pauses.
package protocol DatabaseAvailabilityError: Error {
    var isDatabaseUnavailable: Bool { get }
}

/// True when `error` says the database could not be reached.
package func isDatabaseUnavailable(_ error: any Error) -> Bool {
    (error as? any DatabaseAvailabilityError)?.isDatabaseUnavailable ?? false
}
