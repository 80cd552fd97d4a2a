import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to completion and collects its output, with `posix_spawn` and `waitpid`.
/// (Foundation's `Process` on Linux was seen to leave a child that started a daemon unreaped, with
/// `waitUntilExit` spinning.) Pipes are drained and the exit awaited on Dispatch threads, so the
/// blocking calls stay off Swift's cooperative pool.
package enum Subprocess {
    package struct Output: Sendable {
        package let status: Int32
        package let stdout: String
        package let stderr: String

        /// The last non-empty line of standard output: where create commands print the new id or key.
        package var lastLine: String {
            stdout.split(separator: "\n").last.map(String.init) ?? ""
        }
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The repository's root folder (tests run scripts and read files from it).
    package static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) async throws -> Output {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        // Close-on-exec (pipe2 is not visible from Swift here): a child spawned meanwhile by another test
        // must not inherit these pipes and keep them open (this read would then never see EOF). The
        // dup2'd copies in our own child are not affected.
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw Failure(description: "pipe() failed") }
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }

        let pid: pid_t
        do {
            pid = try ProcessSpawn.start(executable, arguments, environment: environment, actions: &actions)
        } catch {
            for fd in outPipe + errPipe { close(fd) }
            throw error
        }
        close(outPipe[1])
        close(errPipe[1])
        let (outReader, errReader, child) = (outPipe[0], errPipe[0], pid)
        async let out = onThread { readToEnd(outReader) }
        async let err = onThread { readToEnd(errReader) }
        let (outData, errData) = await (out, err)
        let status = await onThread { () -> Int32 in
            var raw: Int32 = 0
            while waitpid(child, &raw, 0) == -1 && errno == EINTR {}
            // WIFEXITED / WEXITSTATUS, and 128 + signal for a killed child, as shells report it.
            return raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        }
        return Output(
            status: status, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs a bash snippet from the repository root.
    package static func bash(_ script: String) async throws -> Output {
        let root = repositoryRoot.path.replacingOccurrences(of: "'", with: "'\\''")
        return try await run("/bin/bash", ["-c", "cd '\(root)' && \(script)"])
    }

    /// Reads a file descriptor to its end and closes it.
    private static func readToEnd(_ fd: Int32) -> Data {
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 {
                data.append(buffer, count: count)
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }

    static func onThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}
