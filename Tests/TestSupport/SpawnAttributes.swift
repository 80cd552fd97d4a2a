import Foundation

/// posix_spawn attributes that give the child a clean signal state. The test process's threads block
/// signals such as SIGTERM, and a spawned child inherits that mask: without this, a server a test
/// starts ignores the SIGTERM meant to stop it, and waiting for it hangs.
public enum SpawnAttributes {
    public static func withClean<Result>(_ body: (UnsafePointer<posix_spawnattr_t>) throws -> Result) rethrows -> Result {
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
        return try body(&attributes)
    }
}
