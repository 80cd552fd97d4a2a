import LiveGateDomain
import PostgresClient

/// PostgreSQL's client says itself whether an error means the server could not be reached.
extension PostgresError: DatabaseAvailabilityError {}
