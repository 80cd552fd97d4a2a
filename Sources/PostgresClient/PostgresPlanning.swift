/// How the server plans the runs of a prepared statement: its `plan_cache_mode`, which a connection sets
/// only when the statement it runs asks for another than the last one did.
public struct PostgresPlanning: Sendable, Hashable {
    let planCacheMode: String

    /// PostgreSQL decides: five plans made for the values given, then the generic plan for good if it is
    /// not dearer than those were on average; otherwise a new plan for every run.
    public static let chosenByServer = PostgresPlanning(planCacheMode: "auto")

    /// The generic plan, made once per connection, for statements whose best plan does not depend on the
    /// values. Left to choose, the server compares the generic plan's estimate with the first plans made
    /// for actual values, and a statement whose first runs happened to be small (a batch of one or two
    /// rows) is planned again on every run.
    public static let generic = PostgresPlanning(planCacheMode: "force_generic_plan")
}
