import ArgumentParser
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient

/// Reads settings, a setting that cannot be used ending the command as a usage error (exit status 64,
/// the message naming the variable), as a bad flag does.
func readingSettings<Result>(_ read: () throws -> Result) throws -> Result {
    do {
        return try read()
    } catch let error as SettingsError {
        throw ValidationError(error.description)
    }
}

/// Opens a pool for one command and closes it however the command ends.
func withDatabase<Result>(_ body: (PostgresConnectionPool, Logger) async throws -> Result) async throws -> Result {
    let logger = Logger(label: "livegate")
    let pool = PostgresConnectionPool(
        configuration: try readingSettings { try SettingsReader().database() }, logger: Logger(label: "livegate.postgres"))
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
