import Foundation
import LiveGateDomain

#if canImport(Glibc)
    import Glibc
#endif

/// One client connection through `PostgresFaultProxy` and its connection to the server, relayed by two
/// threads, one a direction. The client's messages are read one at a time, so a faulted statement is
/// caught before the server sees it; the server's are passed on whole, so an injected error never lands
/// inside one of them (an asynchronous notification may arrive at any time).
final class ProxiedPostgresConnection: @unchecked Sendable {
    private let client: Int32
    private let server: Int32
    private let proxy: PostgresFaultProxy
    private let lock = NSLock()
    /// Answers to SSLRequest and GSSENCRequest still to come: one byte each, unframed.
    private var rawAnswersExpected = 0
    private let rawAnswerRelayed = DispatchSemaphore(value: 0)
    /// The server accepted encryption: the rest is relayed as bytes.
    private var encrypted = false
    /// The transaction status of the server's last ReadyForQuery (`I`, `T` or `E`).
    private var transactionStatus = UInt8(ascii: "I")
    private var relaysRunning = 2
    /// Named prepared statements, by name; only the client's thread uses it.
    private var prepared: [String: String] = [:]

    init(client: Int32, server: Int32, proxy: PostgresFaultProxy) {
        self.client = client
        self.server = server
        self.proxy = proxy
    }

    // MARK: - Client to server

    func relayClientMessages() {
        defer { relayEnded() }
        guard relayStartup() else { return }
        while let (header, body) = readMessage(from: client) {
            proxy.waitWhileFrozen()
            if let sql = executedStatement(type: header[0], body: body), let fault = proxy.fault(forStatement: sql) {
                switch fault {
                case .breakConnection:
                    return
                case .stall(let duration):
                    Thread.sleep(forTimeInterval: duration.inSeconds)
                case .fail(let sqlState, let message):
                    if header[0] != UInt8(ascii: "Q"), !discardThroughSync() { return }
                    guard answerWithError(sqlState: sqlState, message: message) else { return }
                    continue
                }
            }
            guard writeAll(server, header + body) else { return }
        }
    }

    /// Relays the untyped messages that open a connection: encryption requests (answered with one byte),
    /// then the startup message or a cancel request. False when the connection ended or went encrypted.
    private func relayStartup() -> Bool {
        proxy.waitWhileFrozen()
        while true {
            guard let lengthBytes = readExactly(client, 4) else { return false }
            let length = Self.integer(lengthBytes)
            guard length >= 8, length < 10_000, let body = readExactly(client, length - 4) else { return false }
            let code = Self.integer(body[0..<4])
            let isEncryptionRequest = code == 80_877_103 || code == 80_877_104
            if isEncryptionRequest { lock.withLock { rawAnswersExpected += 1 } }
            guard writeAll(server, lengthBytes + body) else { return false }
            if isEncryptionRequest {
                rawAnswerRelayed.wait()
                if lock.withLock({ encrypted }) {
                    relayBytes(from: client, to: server)
                    return false
                }
                continue
            }
            if code == 80_877_102 {
                // A cancel request: the server closes the connection after it.
                relayBytes(from: client, to: server)
                return false
            }
            return true
        }
    }

    /// The SQL a message runs, if it runs one: a simple query, a `Parse` of the unnamed statement (an
    /// execution with parameters), or a `Bind` of a named prepared statement. Parsing a named statement
    /// only prepares it: it is remembered, and counted when bound.
    private func executedStatement(type: UInt8, body: [UInt8]) -> String? {
        switch type {
        case UInt8(ascii: "Q"):
            return Self.strings(body, count: 1).first
        case UInt8(ascii: "P"):
            let fields = Self.strings(body, count: 2)
            guard fields.count == 2 else { return nil }
            if fields[0].isEmpty { return fields[1] }
            prepared[fields[0]] = fields[1]
            return nil
        case UInt8(ascii: "B"):
            let fields = Self.strings(body, count: 2)
            guard fields.count == 2, !fields[1].isEmpty else { return nil }
            return prepared[fields[1]]
        default:
            return nil
        }
    }

    /// Drops the client's messages up to its `Sync`, which ends an extended-protocol command.
    private func discardThroughSync() -> Bool {
        while let (header, _) = readMessage(from: client) {
            if header[0] == UInt8(ascii: "S") { return true }
        }
        return false
    }

    /// ErrorResponse and ReadyForQuery, as the server answers a statement that failed.
    private func answerWithError(sqlState: String, message: String) -> Bool {
        var fields: [UInt8] = []
        for (code, value) in [("S", "ERROR"), ("V", "ERROR"), ("C", sqlState), ("M", message)] {
            fields += Array(code.utf8) + Array(value.utf8) + [0]
        }
        fields.append(0)
        let status = lock.withLock { transactionStatus == UInt8(ascii: "I") ? UInt8(ascii: "I") : UInt8(ascii: "E") }
        let answer = Self.message(UInt8(ascii: "E"), fields) + Self.message(UInt8(ascii: "Z"), [status])
        return lock.withLock { writeAll(client, answer) }
    }

    // MARK: - Server to client

    func relayServerMessages() {
        defer { relayEnded() }
        while let first = readExactly(server, 1) {
            if lock.withLock({ rawAnswersExpected }) > 0 {
                let accepted = first[0] == UInt8(ascii: "S") || first[0] == UInt8(ascii: "G")
                lock.withLock {
                    rawAnswersExpected -= 1
                    encrypted = accepted
                }
                let relayed = writeAll(client, first)
                rawAnswerRelayed.signal()
                guard relayed else { return }
                if accepted {
                    relayBytes(from: server, to: client)
                    return
                }
                continue
            }
            guard let lengthBytes = readExactly(server, 4) else { return }
            let length = Self.integer(lengthBytes)
            guard length >= 4, let body = readExactly(server, length - 4) else { return }
            proxy.waitWhileFrozen()
            let relayed = lock.withLock {
                if first[0] == UInt8(ascii: "Z"), let status = body.first { transactionStatus = status }
                return writeAll(client, first + lengthBytes + body)
            }
            guard relayed else { return }
        }
    }

    // MARK: - Sockets

    /// Ends both directions; the last relay to end closes the sockets.
    private func relayEnded() {
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
        rawAnswerRelayed.signal()
        let last = lock.withLock {
            relaysRunning -= 1
            return relaysRunning == 0
        }
        guard last else { return }
        proxy.forgetAndClose([client, server])
    }

    private func relayBytes(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0, writeAll(destination, buffer[0..<count]) else { return }
        }
    }

    private func readMessage(from socket: Int32) -> (header: [UInt8], body: [UInt8])? {
        guard let header = readExactly(socket, 5) else { return nil }
        let length = Self.integer(header[1..<5])
        guard length >= 4, let body = readExactly(socket, length - 4) else { return nil }
        return (header, body)
    }

    private func readExactly(_ socket: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { read(socket, $0.baseAddress! + filled, count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            filled += got
        }
        return bytes
    }

    private func writeAll<Bytes: Collection<UInt8>>(_ socket: Int32, _ bytes: Bytes) -> Bool {
        let array = Array(bytes)
        var sent = 0
        while sent < array.count {
            let wrote = array.withUnsafeBytes { send(socket, $0.baseAddress! + sent, array.count - sent, Int32(MSG_NOSIGNAL)) }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { return false }
            sent += wrote
        }
        return true
    }

    // MARK: - Wire format

    private static func integer<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int {
        bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
    }

    private static func message(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
        let length = UInt32(body.count + 4)
        return [type, UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)] + body
    }

    /// The first `count` NUL-terminated strings of a message body.
    private static func strings(_ body: [UInt8], count: Int) -> [String] {
        var strings: [String] = []
        var start = 0
        while strings.count < count, let end = body[start...].firstIndex(of: 0) {
            strings.append(String(decoding: body[start..<end], as: UTF8.self))
            start = end + 1
        }
        return strings
    }
}
