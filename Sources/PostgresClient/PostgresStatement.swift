/// A statement the pool's connections prepare once each and then run by name. Give each distinct SQL
/// text its own name.
public struct PostgresStatement: Sendable, Hashable {
    public let name: String
    public let sql: String
    public let planning: PostgresPlanning

    public init(name: String, sql: String, planning: PostgresPlanning = .chosenByServer) {
        self.name = name
        self.sql = sql
        self.planning = planning
    }
}
