/// The rows a statement returned, copied out of libpq's result so the `PGresult` is freed at once.
public struct PostgresRows: Sendable, RandomAccessCollection {
    public let columns: [String]
    let cells: [[String?]]
    /// Rows changed by INSERT, UPDATE or DELETE (0 for other statements).
    public let affectedRowCount: Int

    init(columns: [String], cells: [[String?]], affectedRowCount: Int) {
        self.columns = columns
        self.cells = cells
        self.affectedRowCount = affectedRowCount
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { cells.count }

    public subscript(position: Int) -> PostgresRow {
        PostgresRow(columns: columns, values: cells[position])
    }
}

/// One row; columns are read by name and decoded into Swift types.
public struct PostgresRow: Sendable {
    public let columns: [String]
    public let values: [String?]

    /// The column's value, or `nil` for SQL NULL. Inlinable, so that a caller decoding thousands of rows
    /// gets a copy specialized to its types, not one that looks up their generic metadata on every call.
    @inlinable
    public func decode<Value: PostgresDecodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value? {
        guard let index = columns.firstIndex(of: column) else {
            throw PostgresError(code: .decodingFailed, message: "no column named \(column) in the result")
        }
        guard let text = values[index] else { return nil }
        guard let value = Value(postgresText: text) else {
            throw PostgresError(code: .decodingFailed, message: "column \(column) is not a \(Value.self)")
        }
        return value
    }

    /// The column's value; SQL NULL is an error.
    @inlinable
    public func require<Value: PostgresDecodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        guard let value = try decode(column, as: type) else {
            throw PostgresError(code: .decodingFailed, message: "column \(column) is NULL")
        }
        return value
    }
}
