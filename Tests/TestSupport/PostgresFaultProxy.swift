import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP relay between the code under test and the tests' PostgreSQL that reads just enough of the wire
/// protocol to fault chosen statements where the gateway really meets the database: a statement whose
/// SQL contains a given text can fail with an error PostgreSQL could send, have its connection broken
/// under it, or stall. Everything else passes through unchanged, so the gateway runs its production path, with
/// its own pool, prepared statements and transactions.
///
/// Statements are recognised in simple queries (`Q`), in `Parse` (`P`) and, for prepared statements, in
/// `Bind` (`B`) by the name `Parse` gave them on that connection.
package final class PostgresFaultProxy: @unchecked Sendable {
    /// What a faulted statement meets.
    package enum Fault: Sendable, Equatable {
        /// An ErrorResponse with this SQLSTATE; the statement never reaches the server.
        case fail(sqlState: String, message: String)
        /// The connection is closed under it, as when the server dies or the network drops it.
        case breakConnection
        /// It reaches the server only after this long, as when the server or the network hangs; the
        /// connection's later messages wait behind it.
        case stall(Duration)
    }

    private struct Rule {
        var text: String
        var fault: Fault
        var remaining: Int
    }

    /// The port to connect to instead of the server's.
    package let port: Int
    private let serverHost: String
    private let serverPort: Int
    private let listener: Int32
    private let lock = NSLock()
    private var rules: [Rule] = []
    private var statements: [String] = []
    private var sockets: Set<Int32> = []
    private var closed = false
    private var frozen = false

    /// Listens on a free loopback port, relaying each connection to `host`:`port`.
    package init(serverHost host: String, serverPort: Int) throws {
        serverHost = host
        self.serverPort = serverPort
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Subprocess.Failure(description: "the fault proxy could not open a socket") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            Glibc.close(fd)
            throw Subprocess.Failure(description: "the fault proxy could not listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptConnections() }
        thread.start()
    }

    /// A proxy in front of the test command's PostgreSQL (`LIVEGATE_TEST_PG`).
    package static func inFrontOfTestPostgres() throws -> PostgresFaultProxy {
        let server = try TestPostgres.serverConnectionString()
        var fields: [String: String] = [:]
        for pair in server.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return try PostgresFaultProxy(serverHost: fields["host"] ?? "127.0.0.1", serverPort: Int(fields["port"] ?? "5432") ?? 5432)
    }

    /// `connectionString` with its host and port replaced by the proxy's (libpq takes the last of a
    /// keyword given twice).
    package func connectionString(through connectionString: String) -> String {
        "\(connectionString) host=127.0.0.1 port=\(port)"
    }

    /// The next `times` statements whose SQL contains `text` meet `fault`.
    package func inject(_ fault: Fault, whenStatementContains text: String, times: Int = 1) {
        lock.withLock { rules.append(Rule(text: text, fault: fault, remaining: times)) }
    }

    /// How many statements containing `text` were sent so far, faulted ones included.
    package func statements(containing text: String) -> Int {
        lock.withLock { statements.filter { $0.contains(text) }.count }
    }

    /// Stops relaying anything, both ways, on every connection and on new ones, while keeping every
    /// socket open: a server machine that hung (SIGSTOP, a stalled disk, a paused VM). The kernel still
    /// accepts connections and takes what is sent; nothing answers until `thaw`.
    package func freeze() {
        lock.withLock { frozen = true }
    }

    /// Relays again what waited.
    package func thaw() {
        lock.withLock { frozen = false }
    }

    /// Blocks a relay thread while the proxy is frozen (and not closed).
    func waitWhileFrozen() {
        while lock.withLock({ frozen && !closed }) { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// Stops listening and closes every connection. Only the first call does anything: a second close of
    /// the listener's number could close whatever descriptor the process has since given that number.
    package func close() {
        // Under the lock, so no relay closes one of these sockets (and the number is reused) meanwhile.
        lock.withLock {
            guard !closed else { return }
            closed = true
            shutdown(listener, Int32(SHUT_RDWR))
            Glibc.close(listener)
            for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    deinit {
        if !closed { close() }
    }

    // MARK: - Relaying

    private func acceptConnections() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let server = connectToServer()
            guard server >= 0, track([client, server]) else {
                Glibc.close(client)
                if server >= 0 { Glibc.close(server) }
                continue
            }
            let connection = ProxiedPostgresConnection(client: client, server: server, proxy: self)
            Thread { connection.relayClientMessages() }.start()
            Thread { connection.relayServerMessages() }.start()
        }
    }

    private func connectToServer() -> Int32 {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard server >= 0 else { return -1 }
        var address = Self.loopback(port: serverPort)
        address.sin_addr.s_addr = inet_addr(serverHost)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(server)
            return -1
        }
        return server
    }

    private func track(_ pair: [Int32]) -> Bool {
        lock.withLock {
            guard !closed else { return false }
            sockets.formUnion(pair)
            return true
        }
    }

    /// Closes a relayed connection's sockets, under the lock `close` shuts them down under.
    func forgetAndClose(_ pair: [Int32]) {
        lock.withLock {
            sockets.subtract(pair)
            for socket in pair { Glibc.close(socket) }
        }
    }

    /// Records the statement and returns the fault it meets, using up one of the rule's times.
    func fault(forStatement sql: String) -> Fault? {
        lock.withLock {
            statements.append(sql)
            guard let index = rules.firstIndex(where: { $0.remaining > 0 && sql.contains($0.text) }) else { return nil }
            rules[index].remaining -= 1
            return rules[index].fault
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
