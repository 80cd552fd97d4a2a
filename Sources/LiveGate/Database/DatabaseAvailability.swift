import PostgresClient

/// True when an error means PostgreSQL could not be reached (asking again later may work), as opposed
/// to a statement it refused: the API answers 503 with `Retry-After`, delivery pauses.
func isDatabaseUnavailable(_ error: any Error) -> Bool {
    (error as? PostgresError)?.isDatabaseUnavailable ?? false
}
