import CJemalloc
import Logging

/// The memory allocator the process runs on. LiveGate links jemalloc ahead of the C library, so that
/// its malloc and free are the whole process's: a push's objects are made on one thread and freed on
/// another, which jemalloc's per-thread caches take far more cheaply than glibc's arenas
/// (docs/benchmarks.md). The gateway logs which one it got as it starts.
package enum ProcessAllocator {
    /// "jemalloc", or "libc" in a build that did not link jemalloc ahead of the C library.
    package static var name: String { lg_malloc_is_jemalloc() != 0 ? "jemalloc" : "libc" }

    /// jemalloc's version, when it is the allocator.
    package static var version: String? {
        guard lg_malloc_is_jemalloc() != 0, let version = lg_jemalloc_version() else { return nil }
        return String(cString: version)
    }

    /// Bytes this thread has allocated so far, as jemalloc counts them; nil when it is not the allocator.
    package static var bytesAllocatedByThisThread: UInt64? {
        guard lg_malloc_is_jemalloc() != 0 else { return nil }
        var allocated: UInt64 = 0
        var length = MemoryLayout<UInt64>.size
        return mallctl("thread.allocated", &allocated, &length, nil, 0) == 0 ? allocated : nil
    }

    static var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = ["allocator": "\(name)"]
        if let version { metadata["version"] = "\(version)" }
        return metadata
    }
}
