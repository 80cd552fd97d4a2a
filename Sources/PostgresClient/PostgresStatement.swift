/// A statement the pool's connections prepare once each and then run by name. Give each distinct SQL
/// text its own name.
public struct PostgresStatement: Sendable, Hashable {
    public let name: String
    public let sql: String

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }
}
