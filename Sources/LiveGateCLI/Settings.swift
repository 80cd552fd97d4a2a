import ArgumentParser
import Foundation
import LiveGate
import Logging
import PostgresClient

/// Settings that come from the environment (documented in docs/configuration.md).
enum Settings {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    static func logLevel() -> Logger.Level {
        environment["LIVEGATE_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .info
    }

    static func database() throws -> PostgresConfiguration {
        guard let url = environment["DATABASE_URL"], !url.isEmpty else {
            throw ValidationError("DATABASE_URL is not set: give a libpq connection string or a postgres:// URI")
        }
        return PostgresConfiguration(
            connectionString: url,
            maximumConnections: try integer("LIVEGATE_DB_POOL_SIZE", default: 10, range: 1...500))
    }

    static func integer(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = environment[name], !text.isEmpty else { return value }
        guard let parsed = Int(text), range.contains(parsed) else {
            throw ValidationError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return parsed
    }

    /// A whole number of `unit`s (`LIVEGATE_…_SECONDS` in `.seconds(1)`) as a `Duration`.
    static func duration(_ name: String, default value: Int, range: ClosedRange<Int>, unit: Duration) throws -> Duration {
        unit * (try integer(name, default: value, range: range))
    }

    /// `on`/`off` (or true/false, 1/0).
    static func `switch`(_ name: String, default value: Bool) throws -> Bool {
        switch environment[name]?.lowercased() {
        case nil, "": return value
        case "on", "true", "1": return true
        case "off", "false", "0": return false
        default: throw ValidationError("\(name) must be on or off")
        }
    }

    /// `host:port` (`[::1]:9464` for IPv6); nil when unset.
    static func address(_ name: String) throws -> (host: String, port: Int)? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        let problem = ValidationError("\(name) must be host:port, such as 127.0.0.1:9464 or [::1]:9464")
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port)
        else { throw problem }
        var host = text[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains("[") else { throw problem }
        return (String(host), port)
    }

    static func networks(_ name: String) throws -> [IPNetwork] {
        guard let text = environment[name], !text.isEmpty else { return [] }
        return try text.split(separator: ",").map { entry in
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            guard let network = IPNetwork(trimmed) else { throw ValidationError("\(name): '\(trimmed)' is not an IP address or CIDR") }
            return network
        }
    }
}

/// Opens a pool for one command and closes it however the command ends.
func withDatabase<Result>(_ body: (PostgresConnectionPool, Logger) async throws -> Result) async throws -> Result {
    let logger = Logger(label: "livegate")
    let pool = PostgresConnectionPool(configuration: try Settings.database(), logger: Logger(label: "livegate.postgres"))
    do {
        let result = try await body(pool, logger)
        await pool.close()
        return result
    } catch {
        await pool.close()
        throw error
    }
}

/// Prints lines for a person, then `value` alone on the last line, for scripts.
func printResult(_ lines: [String], value: String) {
    for line in lines { print(line) }
    print(value)
}

/// The text of a `--key-file` (an APNs `.p8`), or the error a person reads when it cannot be read.
func readKeyFile(_ path: String) throws -> String {
    do {
        return try String(contentsOfFile: path, encoding: .utf8)
    } catch {
        throw CLIError("cannot read --key-file \(path)")
    }
}
