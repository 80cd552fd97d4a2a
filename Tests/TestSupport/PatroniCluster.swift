import Foundation
import LiveGateStore
import Logging
import PostgresClient

/// The reference high-availability cluster (`scripts/ha/cluster.sh`: etcd and three Patroni members in
/// synchronous mode) in a folder of its own, for tests that fail its primary over under a gateway.
package struct PatroniCluster: Sendable {
    /// The tests on such a cluster take minutes and need Debian's `patroni` and `etcd-server`: they run
    /// when `LIVEGATE_HA_TESTS=1` (the README's test command sets it and installs both).
    package static var testsEnabled: Bool { ProcessInfo.processInfo.environment["LIVEGATE_HA_TESTS"] == "1" }

    package let folder: String
    package let portBase: Int
    /// Multi-host, `target_session_attrs=read-write`: as an operator gives it to the gateway.
    package let url: String

    /// Starts a cluster on free ports (see scripts/ha/README.md) and waits until it has a writable leader
    /// and a synchronous standby, with the `livegate` database. Its folder is under `LIVEGATE_HA_TEST_DIR`
    /// (where the test command looks for clusters a crashed run left), else /tmp.
    package static func up() async throws -> PatroniCluster {
        let parent = ProcessInfo.processInfo.environment["LIVEGATE_HA_TEST_DIR"] ?? "/tmp"
        let folder = "\(parent)/livegate-ha-test-\(UUID().uuidString.prefix(8))"
        let portBase = try freePortBase()
        let output = try await run("up", folder: folder, portBase: portBase)
        guard let url = output.split(separator: "\n").first(where: { $0.hasPrefix("LIVEGATE_HA_URL=") }) else {
            _ = try? await run("down", folder: folder, portBase: portBase)
            throw Subprocess.Failure(description: "cluster.sh up printed no URL: \(output)")
        }
        return PatroniCluster(folder: folder, portBase: portBase, url: String(url.dropFirst("LIVEGATE_HA_URL=".count)))
    }

    /// A base whose ports (base+1…3, +11…13, +21, +22) are free, below the ephemeral range (so no
    /// client's port takes one meanwhile), picked at random so that two runs at once rarely meet.
    private static func freePortBase() throws -> Int {
        for _ in 0..<50 {
            let base = Int.random(in: 400..<600) * 50
            if ([1, 2, 3, 11, 12, 13, 21, 22] as [Int]).allSatisfy({ LiveGateBinary.isFree(port: base + $0) }) { return base }
        }
        throw Subprocess.Failure(description: "no free ports for a cluster between 20000 and 30000")
    }

    /// SIGKILLs the leader's Patroni and PostgreSQL: a machine that dies. Returns the member's name.
    @discardableResult
    package func killLeader() async throws -> String { try member(try await run("kill-leader")) }

    /// SIGSTOPs the leader's Patroni and PostgreSQL, sockets left open: a machine that hangs.
    @discardableResult
    package func freezeLeader() async throws -> String { try member(try await run("freeze-leader")) }

    package func thaw() async throws { _ = try await run("thaw") }

    /// Waits until one member takes writes and it is Patroni's leader; returns its name.
    @discardableResult
    package func waitForOnePrimary() async throws -> String { try member(try await run("wait-primary")) }

    /// Stops every process of the cluster and removes its folder; a failure is only printed (it runs on
    /// the way out of a test that may have failed already).
    package func down() async {
        do {
            _ = try await run("down")
        } catch {
            print("cluster.sh down: \(error)")
        }
    }

    /// `livegate`, migrated, as a `TestDatabase` on the multi-host URL (its pool follows the primary),
    /// the pool closed when `body` ends.
    package func withDatabase<Result: Sendable>(_ body: (TestDatabase) async throws -> Result) async throws -> Result {
        try await TestDatabase.migrated(
            name: "livegate",
            configuration: .init(connectionString: url, maximumConnections: 4, connectTimeoutSeconds: 2, callTimeout: .seconds(30)),
            body)
    }

    private func member(_ line: String) throws -> String {
        guard let name = line.split(separator: " ").first else {
            throw Subprocess.Failure(description: "cluster.sh printed no member: \(line)")
        }
        return String(name)
    }

    private func run(_ command: String) async throws -> String {
        try await Self.run(command, folder: folder, portBase: portBase)
    }

    /// `cluster.sh COMMAND` on this cluster; its standard output. On a failure the cluster's state and
    /// the script's error come in the thrown description.
    private static func run(_ command: String, folder: String, portBase: Int) async throws -> String {
        let output = try await Subprocess.bash(
            "LIVEGATE_HA_DIR='\(folder)' LIVEGATE_HA_PORT_BASE=\(portBase) scripts/ha/cluster.sh \(command)")
        guard output.status == 0 else {
            throw Subprocess.Failure(description: "cluster.sh \(command) exited \(output.status): \(output.stderr)")
        }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
