import Foundation

/// A server a test starts and stops (posix_spawn, SIGTERM, waitpid): a binary that does not fork.
package final class BackgroundProcess: @unchecked Sendable {
    package let pid: pid_t
    private var stopped = false

    package init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        pid = try ProcessSpawn.start(executable, arguments, environment: environment, actions: &actions)
    }

    deinit {
        stop()
    }

    package func stop() {
        stop(signal: SIGTERM)
    }

    /// Whether the process has ended by itself (reaped here, so `stop` has nothing left to do).
    package var hasExited: Bool {
        guard !stopped else { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        stopped = true
        return true
    }

    /// Sends `signal` (SIGKILL for a crash) and reaps the process.
    package func stop(signal: Int32) {
        guard !stopped else { return }
        stopped = true
        kill(pid, signal)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }

    /// The full path of a command on PATH (Debian puts nghttpd in /usr/sbin).
    package static func locate(_ command: String) async throws -> String {
        let found = try await Subprocess.bash("PATH=$PATH:/usr/sbin:/sbin command -v \(command)")
        let path = found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard found.status == 0, !path.isEmpty else {
            throw Subprocess.Failure(description: "\(command) is not installed (scripts/install-deps.sh test installs it)")
        }
        return path
    }

    /// Waits until something accepts TCP connections on 127.0.0.1:`port` while this process runs: false
    /// as soon as it has exited (a server that could not bind the port exits at once), so the caller can
    /// try another port instead of waiting out the timeout.
    package func listens(on port: Int, timeout: Duration = .seconds(30)) async throws -> Bool {
        try await Self.waitForPort(port, timeout: timeout, unless: { self.hasExited })
    }

    /// Waits until something accepts TCP connections on 127.0.0.1:`port`.
    package static func waitForPort(_ port: Int, timeout: Duration = .seconds(10)) async throws {
        _ = try await waitForPort(port, timeout: timeout, unless: { false })
    }

    /// True once something listens on `port`, false as soon as `giveUp` says so; throws at `timeout`.
    private static func waitForPort(_ port: Int, timeout: Duration, unless giveUp: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if giveUp() { return false }
            let probe = try await Subprocess.bash("exec 3<>/dev/tcp/127.0.0.1/\(port)")
            if probe.status == 0 { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Subprocess.Failure(description: "nothing listens on port \(port)")
    }
}
