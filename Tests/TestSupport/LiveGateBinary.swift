import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `livegate` executable, as an operator or a script would.
package enum LiveGateBinary {
    /// `LIVEGATE_BINARY`, or `livegate` next to the test bundle in the build folder.
    package static var path: String {
        if let explicit = ProcessInfo.processInfo.environment["LIVEGATE_BINARY"] { return explicit }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // The test runner may be inside an .xctest bundle folder.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("livegate").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        fatalError("livegate binary not found next to \(CommandLine.arguments[0]); set LIVEGATE_BINARY")
    }

    package static func run(
        _ arguments: [String], databaseURL: String, environment extra: [String: String] = [:]
    )
        async throws -> Subprocess.Output
    {
        try await Subprocess.run(path, arguments, environment: environment(databaseURL: databaseURL, extra))
    }

    /// Starts `livegate serve` in the background; the caller stops it with `terminate()`.
    package static func serve(port: Int, databaseURL: String, environment extra: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", String(port)]
        process.environment = environment(databaseURL: databaseURL, extra)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.standardError
        try process.run()
        return process
    }

    /// The test process's environment with the database and a quiet log level, plus `extra`.
    package static func environment(databaseURL: String, _ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = databaseURL
        environment["LIVEGATE_LOG_LEVEL"] = environment["LIVEGATE_TEST_LOG_LEVEL"] ?? "warning"
        environment.merge(extra) { $1 }
        return environment
    }

    /// A loopback port that was free a moment ago (bound to port 0, read back, closed).
    package static func freePort() -> Int {
        guard let port = bindLoopback(port: 0) else { preconditionFailure("could not bind a loopback port") }
        return port
    }

    /// Whether `port` on 127.0.0.1 could be bound a moment ago.
    package static func isFree(port: Int) -> Bool {
        bindLoopback(port: port) != nil
    }

    /// Binds 127.0.0.1:`port` (0: any), closes it, and returns the port bound, or nil when it was taken.
    private static func bindLoopback(port: Int) -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "socket() failed")
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}
