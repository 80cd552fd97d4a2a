import LiveGate
import Testing

/// Whatever links LiveGate allocates through jemalloc: the gateway's binary, the simulator's (the same
/// binary) and this test process alike.
@Suite("The process's memory allocator")
struct ProcessAllocatorTests {
    @Test func swiftsAllocationsGoThroughJemalloc() throws {
        #expect(ProcessAllocator.name == "jemalloc")
        let version = try #require(ProcessAllocator.version)
        #expect(version.first?.isNumber == true, "\(version)")
        // A mebibyte made by Swift here is counted by jemalloc against this thread.
        let before = try #require(ProcessAllocator.bytesAllocatedByThisThread)
        let block = [UInt8](repeating: 7, count: 1 << 20)
        let after = try #require(ProcessAllocator.bytesAllocatedByThisThread)
        #expect(after - before >= UInt64(block.count), "jemalloc counted \(after - before) bytes")
        #expect(block.last == 7)
    }

    @Test func jemallocReturnsUnusedPagesFromThreadsOfItsOwn() {
        #expect(ProcessAllocator.purgeInBackground())
        #expect(ProcessAllocator.purgesInBackground)
    }
}
