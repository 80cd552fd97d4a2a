import Foundation

/// posix_spawn for the test helpers, with a clean signal state for the child. The test process's
/// threads block signals such as SIGTERM, and a spawned child inherits that mask: without this, a
/// server a test starts ignores the SIGTERM meant to stop it, and waiting for it hangs.
package enum ProcessSpawn {
    /// Starts `executable` with `actions` applied to its file descriptors; returns its pid.
    package static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        actions: inout posix_spawn_file_actions_t
    ) throws -> pid_t {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw Subprocess.Failure(description: "posix_spawn \(executable) failed: \(String(cString: strerror(spawned)))")
        }
        return pid
    }
}
