import Foundation
import TestSupport
import Testing

/// `LIVEGATE_APNS_CONNECTIONS`, `LIVEGATE_APNS_MAX_STREAMS`, `LIVEGATE_APNS_THREADS` and `LIVEGATE_DELIVERY_MAX_IN_FLIGHT` as
/// `livegate serve` reads them: the settings in force, in-flight and page size derived from the first two
/// unless set, are in its "APNs connections" line at start; a value out of range stops it with why.
@Suite("APNs connection settings from the environment", .heavy, .requiresPostgres)
struct APNsConnectionSettingsTests {
    /// Starts `livegate serve` with `settings` (the others unset), and stops it once it logged its APNs
    /// connection settings or exited: that line, or nil with the exit status and what it printed.
    static func start(with settings: [String: String]) async throws -> (line: String?, status: Int32?, stderr: String) {
        try await TestDatabase.with { database in
            var extra = [
                "LIVEGATE_APNS_CONNECTIONS": "", "LIVEGATE_APNS_MAX_STREAMS": "", "LIVEGATE_APNS_THREADS": "",
                "LIVEGATE_DELIVERY_MAX_IN_FLIGHT": "", "LIVEGATE_DELIVERY_PAGE_SIZE": "",
            ]
            extra.merge(settings) { $1 }
            extra["LIVEGATE_LOG_LEVEL"] = "info"
            let script = """
                log=$(mktemp) && trap 'rm -f "$log"' EXIT
                "$0" serve --host 127.0.0.1 --port \(LiveGateBinary.freePort()) 2>"$log" & pid=$!
                for _ in $(seq 1 400); do grep -q 'APNs connections' "$log" && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
                if kill -0 $pid 2>/dev/null; then kill -TERM $pid; wait $pid; echo running; else wait $pid; echo "status=$?"; fi
                cat "$log" >&2
                """
            let output = try await Subprocess.run(
                "/bin/bash", ["-c", script, LiveGateBinary.path],
                environment: LiveGateBinary.environment(databaseURL: database.connectionString, extra))
            let line = output.stderr.split(separator: "\n").first { $0.hasSuffix("APNs connections") }.map(String.init)
            let status = output.stdout.split(separator: "\n").last.flatMap { $0.hasPrefix("status=") ? Int32($0.dropFirst(7)) : nil }
            return (line, status, output.stderr)
        }
    }

    /// Threads default to one per core, at most one per connection.
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    @Test(arguments: [
        ([:], "connections=4 max_in_flight=4000 max_streams=500 page_size=2000 threads=\(min(4, cores))"),
        (["LIVEGATE_APNS_CONNECTIONS": "8"], "connections=8 max_in_flight=8000 max_streams=500 page_size=4000 threads=\(min(8, cores))"),
        (
            ["LIVEGATE_APNS_CONNECTIONS": "2", "LIVEGATE_APNS_MAX_STREAMS": "250", "LIVEGATE_APNS_THREADS": "1"],
            "connections=2 max_in_flight=1000 max_streams=250 page_size=1000 threads=1"
        ),
        (
            ["LIVEGATE_APNS_MAX_STREAMS": "1000", "LIVEGATE_DELIVERY_MAX_IN_FLIGHT": "64", "LIVEGATE_APNS_THREADS": "3"],
            "connections=4 max_in_flight=64 max_streams=1000 page_size=4000 threads=3"
        ),
        // No more threads than connections.
        (
            ["LIVEGATE_APNS_CONNECTIONS": "2", "LIVEGATE_APNS_THREADS": "8"],
            "connections=2 max_in_flight=2000 max_streams=500 page_size=1000 threads=2"
        ),
        // 64 × 10,000 is more than in-flight's own ceiling.
        (
            ["LIVEGATE_APNS_CONNECTIONS": "64", "LIVEGATE_APNS_MAX_STREAMS": "10000", "LIVEGATE_APNS_THREADS": "8"],
            "connections=64 max_in_flight=100000 max_streams=10000 page_size=10000 threads=8"
        ),
    ])
    func theSettingsInForceAreLoggedAtStart(settings: [String: String], expected: String) async throws {
        let started = try await Self.start(with: settings)
        let line = try #require(started.line, "\(started.stderr)")
        // The shipped binary also answers libcurl's repeated socket checks within a pass (`CurlPollCache`)
        // and leaves libcurl's resets of closed streams unsent (`CurlStreamReset`).
        #expect(
            line.contains("livegate: cached_socket_checks=true closed_stream_resets_unsent=true \(expected) timeout_seconds=30 "),
            "\(line)")
    }

    /// The shipped binary runs on jemalloc, and says so before its connection settings.
    @Test func theBinarysAllocatorIsLoggedAtStart() async throws {
        let started = try await Self.start(with: [:])
        let line = try #require(
            started.stderr.split(separator: "\n").first { $0.hasSuffix("memory allocator") }.map(String.init), "\(started.stderr)")
        #expect(line.contains("livegate: allocator=jemalloc background_purge=true version=5."), "\(line)")
    }

    @Test(arguments: [
        (["LIVEGATE_APNS_CONNECTIONS": "0"], "LIVEGATE_APNS_CONNECTIONS must be a whole number from 1 to 64"),
        (["LIVEGATE_APNS_CONNECTIONS": "65"], "LIVEGATE_APNS_CONNECTIONS must be a whole number from 1 to 64"),
        (["LIVEGATE_APNS_MAX_STREAMS": "0"], "LIVEGATE_APNS_MAX_STREAMS must be a whole number from 1 to 10000"),
        (["LIVEGATE_APNS_MAX_STREAMS": "many"], "LIVEGATE_APNS_MAX_STREAMS must be a whole number from 1 to 10000"),
        (["LIVEGATE_APNS_THREADS": "0"], "LIVEGATE_APNS_THREADS must be a whole number from 1 to 64"),
        (["LIVEGATE_APNS_THREADS": "65"], "LIVEGATE_APNS_THREADS must be a whole number from 1 to 64"),
        (["LIVEGATE_DELIVERY_MAX_IN_FLIGHT": "100001"], "LIVEGATE_DELIVERY_MAX_IN_FLIGHT must be a whole number from 1 to 100000"),
    ])
    func valuesOutOfRangeStopTheGatewayWithWhy(settings: [String: String], message: String) async throws {
        let started = try await Self.start(with: settings)
        #expect(started.line == nil, "\(started.stderr)")
        #expect(started.status == 64, "\(started.stderr)")
        #expect(started.stderr.contains("Error: \(message)"), "\(started.stderr)")
    }
}
