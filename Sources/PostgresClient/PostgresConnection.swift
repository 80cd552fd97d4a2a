import CLibPQ
import Foundation

/// One libpq connection. Every call blocks, so the pool runs them on its own threads, and hands a
/// connection to one caller at a time; that exclusive hand-over is what makes `@unchecked Sendable` sound.
/// The `PGconn` is owned here and freed exactly once, in `deinit`.
///
/// Statements are sent with libpq's asynchronous calls on a non-blocking socket and waited for with
/// `poll` until `deadline`: a server that hangs (a frozen machine, a stalled disk) keeps its sockets open
/// and the kernel keeps acknowledging, so neither PostgreSQL's timeouts nor TCP's would ever end the wait.
public final class PostgresConnection: @unchecked Sendable {
    let handle: OpaquePointer
    /// The server this connection reached (`host:port`), of the hosts a multi-host connection string names.
    public let server: String
    /// When the statements being run must be answered by; nil: no limit. The pool sets it for each call.
    var deadline: ContinuousClock.Instant?
    /// Set once the connection must not be used again though libpq still calls it open: a statement
    /// missed its deadline (the server's state is unknown), or the server turned out read-only.
    var discardReason: PostgresError.Code?
    /// Statements that returned a result since the pool last handed this connection out.
    var completedStatements = 0
    /// Names of the statements prepared on this connection (they last as long as it does).
    private var preparedStatements = Set<String>()
    /// The session's `plan_cache_mode` as prepared statements left it; nil when not known, after it was
    /// set inside a transaction block (a rollback undoes it).
    private var planning: PostgresPlanning? = .chosenByServer

    private init(handle: OpaquePointer) {
        self.handle = handle
        let host = PQhost(handle).map { String(cString: $0) } ?? ""
        let port = PQport(handle).map { String(cString: $0) } ?? ""
        server = "\(host):\(port)"
    }

    deinit {
        // A connection that missed a deadline had its socket shut down already, so PQfinish's goodbye
        // fails at once instead of blocking on a server that takes nothing.
        PQfinish(handle)
    }

    /// Opens a connection (blocking). The connection string is expanded by libpq, and its own settings win
    /// over the defaults given here.
    static func connect(_ configuration: PostgresConfiguration) throws -> PostgresConnection {
        let settings =
            [
                ("connect_timeout", String(configuration.connectTimeoutSeconds)),
                ("application_name", configuration.applicationName),
            ] + configuration.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            + [("dbname", configuration.connectionString)]
        let keywords = settings.map { strdup($0.0) } + [nil]
        let values = settings.map { strdup($0.1) } + [nil]
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let opened = keywords.withUnsafeBufferPointer { keywordBuffer in
            values.withUnsafeBufferPointer { valueBuffer in
                keywordBuffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: keywords.count) { k in
                    valueBuffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: values.count) { v in
                        PQconnectdbParams(k, v, 1)
                    }
                }
            }
        }
        guard let opened else {
            throw PostgresError(code: .connectionFailed, message: "libpq could not allocate a connection")
        }
        let connection = PostgresConnection(handle: opened)
        // libpq prints server notices (e.g. "relation already exists, skipping") to stderr by default;
        // they are informational, and stderr belongs to the application's logs.
        PQsetNoticeProcessor(opened, { _, _ in }, nil)
        guard PQstatus(opened) == CONNECTION_OK else {
            throw PostgresError(code: .connectionFailed, message: connection.lastErrorMessage)
        }
        guard PQsetnonblocking(opened, 1) == 0 else {
            throw PostgresError(code: .connectionFailed, message: connection.lastErrorMessage)
        }
        // Timestamps are read back in one known text form. A server that accepted the connection and
        // then froze gets the connect timeout here too.
        connection.deadline = .now + .seconds(configuration.connectTimeoutSeconds)
        defer { connection.deadline = nil }
        try connection.executeScript("SET TIME ZONE 'UTC'; SET DateStyle = 'ISO, YMD'")
        return connection
    }

    /// The value libpq uses for a connection keyword (`keepalives_idle`, `application_name`…), from
    /// `PQconninfo`; nil when it has none. Never a password (`password`, `sslpassword`): those are not
    /// answered.
    public func setting(_ keyword: String) -> String? {
        guard !keyword.contains("password"), let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let name = option.pointee.keyword {
            if String(cString: name) == keyword { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }

    /// True once libpq has seen the connection fail, a statement missed its deadline, or the server
    /// answered that it is read-only (a primary demoted by a failover); the pool then discards it.
    public var isBroken: Bool { discardReason != nil || PQstatus(handle) != CONNECTION_OK }

    /// On an idle connection, waits (blocking) up to `milliseconds` while the server sends nothing that
    /// breaks it, reading what comes: a server that shuts down or ends the session sends its goodbye and
    /// closes the socket, and the kernel reports a peer that TCP keepalives found dead. Returns false as
    /// soon as the connection is broken, true if it lasted the whole time.
    public func waitWhileOpen(milliseconds: Int32) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while !isBroken {
            let socket = PQsocket(handle)
            let left = deadline - ContinuousClock.now
            guard socket >= 0 else { return false }
            guard left > .zero else { return true }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32((left / .milliseconds(1)).rounded(.up)))
            if ready > 0 {
                // Reads what came (an error, then end of file, breaks the connection); parsing it hands any
                // notice to the silenced notice processor instead of letting it pile up.
                if PQconsumeInput(handle) == 1 { _ = PQisBusy(handle) }
            } else if ready < 0, errno != EINTR {
                return !isBroken
            }
        }
        return false
    }

    /// Runs one statement with `$1…$n` parameters (`PQexecParams`); values never enter the SQL text.
    @discardableResult
    public func query(_ sql: String, _ parameters: [(any PostgresBindable)?] = []) throws -> PostgresRows {
        try run {
            Self.withEncoded(parameters) { count, types, values, lengths, formats in
                PQsendQueryParams(handle, sql, count, types, values, lengths, formats, 0)
            }
        }
    }

    /// Runs a statement prepared once per connection (`PQprepare`, then `PQexecPrepared`), so the hot
    /// path skips parsing and planning. The statement's SQL must not depend on the parameters.
    @discardableResult
    public func query(_ statement: PostgresStatement, _ parameters: [(any PostgresBindable)?] = []) throws -> PostgresRows {
        if !preparedStatements.contains(statement.name) {
            try run { PQsendPrepare(handle, statement.name, statement.sql, 0, nil) }
            preparedStatements.insert(statement.name)
        }
        if statement.planning != planning {
            try executeScript("SET plan_cache_mode = \(statement.planning.planCacheMode)")
            planning = PQtransactionStatus(handle) == PQTRANS_IDLE ? statement.planning : nil
        }
        return try run {
            Self.withEncoded(parameters) { count, _, values, lengths, formats in
                PQsendQueryPrepared(handle, statement.name, count, values, lengths, formats, 0)
            }
        }
    }

    /// Lays parameters out as libpq takes them: text with the type left to the server, or binary bytea.
    private static func withEncoded(
        _ parameters: [(any PostgresBindable)?],
        _ body: (Int32, UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) ->
            Int32
    ) -> Int32 {
        var values: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        var types: [Oid] = []
        values.reserveCapacity(parameters.count)
        defer { values.forEach { free($0) } }
        for parameter in parameters.map({ $0?.postgresParameter }) {
            switch parameter {
            case nil:
                values.append(nil)
                lengths.append(0)
                formats.append(0)
                types.append(0)
            case .text(let text):
                values.append(strdup(text))
                lengths.append(0)
                formats.append(0)
                types.append(0)  // the server infers the type from the statement
            case .bytes(let bytes):
                // malloc, like strdup above, so one `free` releases every value.
                let buffer = malloc(max(bytes.count, 1))!.assumingMemoryBound(to: CChar.self)
                bytes.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { memcpy(buffer, base, bytes.count) }
                }
                values.append(buffer)
                lengths.append(Int32(bytes.count))
                formats.append(1)
                types.append(17)  // bytea, binary
            }
        }
        return values.withUnsafeBufferPointer { valueBuffer in
            valueBuffer.baseAddress.map { base in
                base.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: values.count) { pointers in
                    body(Int32(values.count), types, pointers, lengths, formats)
                }
            } ?? body(0, nil, nil, nil, nil)
        }
    }

    /// Runs trusted SQL that may hold several statements and no parameters (`PQexec`): schema migrations
    /// and session settings only, never text that came from a request.
    public func executeScript(_ sql: String) throws {
        try run { PQsendQuery(handle, sql) }
    }

    /// Sends with `send` (one of libpq's `PQsend…`), waits for the results within `deadline`, and
    /// returns them as a blocking call would: the first error, or else the last result.
    @discardableResult
    private func run(_ send: () -> Int32) throws -> PostgresRows {
        guard !isBroken else {
            throw PostgresError(code: discardReason ?? .connectionLost, message: "the connection is no longer usable")
        }
        if let deadline, deadline <= .now {
            // Nothing was sent, so the connection is sound, unless this leaves a transaction open on it.
            if PQtransactionStatus(handle) != PQTRANS_IDLE { discardReason = .timedOut }
            throw PostgresError(code: .timedOut, message: "the call's deadline passed before its next statement")
        }
        guard send() == 1 else { return try consume(nil) }
        return try consume(try awaitResult())
    }

    /// Copies a result out and frees it; throws the server's error with its SQLSTATE.
    @discardableResult
    private func consume(_ result: OpaquePointer?) throws -> PostgresRows {
        guard let result else {
            throw PostgresError(code: isBroken ? .connectionLost : .statementFailed, message: lastErrorMessage)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            completedStatements += 1
            return rows(of: result)
        default:
            let sqlState = field(of: result, lg_pq_diag_sqlstate())
            let message = field(of: result, lg_pq_diag_message_primary()) ?? lastErrorMessage
            if sqlState == PostgresError.readOnlySQLState { discardReason = .connectionLost }
            throw PostgresError(code: isBroken ? .connectionLost : .statementFailed, sqlState: sqlState, message: message)
        }
    }

    private func rows(of result: OpaquePointer) -> PostgresRows {
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        var cells: [[String?]] = []
        cells.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            cells.append(
                (0..<Int32(columnCount)).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                })
        }
        let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
        return PostgresRows(columns: columns, cells: cells, affectedRowCount: affected)
    }

    private func field(of result: OpaquePointer, _ code: Int32) -> String? {
        PQresultErrorField(result, code).map { String(cString: $0) }
    }

    var lastErrorMessage: String {
        let text = PQerrorMessage(handle).map { String(cString: $0) } ?? ""
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "unknown libpq error" : trimmed
    }
}
