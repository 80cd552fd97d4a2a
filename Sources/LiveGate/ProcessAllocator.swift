import CJemalloc
import Logging

/// The memory allocator the process runs on. LiveGate links jemalloc ahead of the C library, so that
/// its malloc and free are the whole process's: a push's objects are made on one thread and freed on
/// another, which jemalloc's per-thread caches take more cheaply than glibc's arenas
/// (docs/benchmarks.md). The gateway logs which one it got as it starts.
package enum ProcessAllocator {
    /// Whether `malloc` resolved to jemalloc's: fixed when the process was linked and loaded.
    private static let isJemalloc = lg_malloc_is_jemalloc() != 0

    /// "jemalloc", or "libc" in a build that did not link jemalloc ahead of the C library.
    package static var name: String { isJemalloc ? "jemalloc" : "libc" }

    /// jemalloc's version, when it is the allocator.
    package static var version: String? {
        guard isJemalloc, let version = lg_jemalloc_version() else { return nil }
        return String(cString: version)
    }

    /// Has jemalloc return unused pages to the system from threads of its own: done on the threads that
    /// allocate, it cost bench/tracking a twentieth of its updates a second. Called once, in `main`; false
    /// when the allocator is not jemalloc or refused.
    @discardableResult
    package static func purgeInBackground() -> Bool {
        isJemalloc && lg_jemalloc_purge_in_background() != 0
    }

    /// Whether jemalloc's background threads return unused pages (`purgeInBackground`).
    package static var purgesInBackground: Bool {
        isJemalloc && lg_jemalloc_purges_in_background() != 0
    }

    /// Bytes this thread has allocated so far, as jemalloc counts them; nil when it is not the allocator.
    package static var bytesAllocatedByThisThread: UInt64? {
        guard isJemalloc else { return nil }
        var allocated: UInt64 = 0
        var length = MemoryLayout<UInt64>.size
        return mallctl("thread.allocated", &allocated, &length, nil, 0) == 0 ? allocated : nil
    }

    static var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = ["allocator": "\(name)"]
        if let version {
            metadata["version"] = "\(version)"
            metadata["background_purge"] = "\(purgesInBackground)"
        }
        return metadata
    }
}
