import Foundation
import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient

/// Reads settings from environment variables (docs/configuration.md): unset or empty means the default;
/// anything else must be valid, or the read fails with a `SettingsError` naming the variable.
package struct SettingsReader: Sendable {
    package let values: [String: String]

    package init(_ values: [String: String] = ProcessInfo.processInfo.environment) {
        self.values = values
    }

    package subscript(name: String) -> String? {
        values[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    package func logLevel() -> Logger.Level {
        self["LIVEGATE_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .info
    }

    package func database() throws -> PostgresConfiguration {
        guard let url = self["DATABASE_URL"] else {
            throw SettingsError("DATABASE_URL is not set: give a libpq connection string or a postgres:// URI")
        }
        return PostgresConfiguration(
            connectionString: url, maximumConnections: try integer("LIVEGATE_DB_POOL_SIZE", default: 10, range: 1...500),
            callTimeout: try duration("LIVEGATE_DB_TIMEOUT_SECONDS", default: 10, range: 1...600, unit: .seconds(1)))
    }

    /// `DATABASE_READ_URL`, with the primary's pool size and deadline; nil when unset.
    package func readDatabase() throws -> PostgresConfiguration? {
        guard let url = self["DATABASE_READ_URL"] else { return nil }
        var configuration = try database()
        configuration.connectionString = url
        configuration.applicationName = "livegate-reads"
        return configuration
    }

    package func integer(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = self[name] else { return value }
        guard let parsed = Int(text), range.contains(parsed) else {
            throw SettingsError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return parsed
    }

    /// A whole number of `unit`s (`LIVEGATE_…_SECONDS` in `.seconds(1)`) as a `Duration`.
    package func duration(_ name: String, default value: Int, range: ClosedRange<Int>, unit: Duration) throws -> Duration {
        unit * (try integer(name, default: value, range: range))
    }

    /// `on`/`off` (or true/false, 1/0).
    package func `switch`(_ name: String, default value: Bool) throws -> Bool {
        switch self[name]?.lowercased() {
        case nil: return value
        case "on", "true", "1": return true
        case "off", "false", "0": return false
        default: throw SettingsError("\(name) must be on or off")
        }
    }

    /// `host:port` (`[::1]:9464` for IPv6); nil when unset.
    package func address(_ name: String) throws -> (host: String, port: Int)? {
        guard let text = self[name] else { return nil }
        let problem = SettingsError("\(name) must be host:port, such as 127.0.0.1:9464 or [::1]:9464")
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port)
        else { throw problem }
        var host = text[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains("[") else { throw problem }
        return (String(host), port)
    }

    package func networks(_ name: String) throws -> [IPNetwork] {
        guard let text = self[name] else { return [] }
        return try text.split(separator: ",").map { entry in
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            guard let network = IPNetwork(trimmed) else { throw SettingsError("\(name): '\(trimmed)' is not an IP address or CIDR") }
            return network
        }
    }
}
