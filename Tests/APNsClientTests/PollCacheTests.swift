import CurlPollCache
import Foundation
import Glibc
import Synchronization
import Testing

/// Within a lane's pass, a socket check libcurl repeats is answered from the pass's first answer when
/// that was "quiet"; a ready socket, a check with a timeout, and any check outside a pass go to the kernel.
@Suite("Socket checks within a pass")
struct PollCacheTests {
    /// Two connected sockets: what is written to `peer` makes `socket` readable.
    private final class SocketPair {
        let socket: Int32
        let peer: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
            socket = ends[0]
            peer = ends[1]
        }

        deinit {
            close(socket)
            close(peer)
        }

        func send() {
            var byte: UInt8 = 1
            #expect(write(peer, &byte, 1) == 1)
        }

        func receive() {
            var byte: UInt8 = 0
            #expect(read(socket, &byte, 1) == 1)
        }

        func isReadable(timeout: Int32 = 0) -> Bool { PollCacheTests.isReadable(socket, timeout: timeout) }
    }

    /// libcurl's check of a transfer's socket: readable now, without waiting?
    private static func isReadable(_ socket: Int32, timeout: Int32 = 0) -> Bool {
        var check = pollfd(fd: socket, events: Int16(POLLIN | POLLPRI), revents: 0)
        let ready = poll(&check, 1, timeout)
        return ready == 1 && check.revents & Int16(POLLIN) != 0
    }

    @Test func aQuietSocketStaysQuietForTheRestOfThePass() throws {
        let pair = try SocketPair()
        let answeredBefore = lg_polls_answered_from_cache()
        lg_poll_cache_begin_pass()
        #expect(!pair.isReadable())
        pair.send()
        // The kernel would now say readable; the pass answers what it found, as if the byte came later.
        #expect(!pair.isReadable())
        #expect(!pair.isReadable())
        lg_poll_cache_end_pass()
        // Process-wide and only ever growing: lanes of other tests can add to it.
        #expect(lg_polls_answered_from_cache() - answeredBefore >= 2)
        #expect(pair.isReadable(), "outside a pass every check asks the kernel")
        lg_poll_cache_begin_pass()
        #expect(pair.isReadable(), "the next pass asks the kernel afresh")
        lg_poll_cache_end_pass()
    }

    @Test func aReadySocketIsAskedAgainEachTime() throws {
        let pair = try SocketPair()
        pair.send()
        lg_poll_cache_begin_pass()
        #expect(pair.isReadable())
        pair.receive()
        #expect(!pair.isReadable(), "readiness is never answered from memory")
        lg_poll_cache_end_pass()
    }

    @Test func aCheckThatWaitsOrASocketForgottenGoesToTheKernel() throws {
        let pair = try SocketPair()
        lg_poll_cache_begin_pass()
        #expect(!pair.isReadable())
        pair.send()
        #expect(pair.isReadable(timeout: 10), "a check that may wait is libcurl's own wait, not a socket check")
        pair.receive()
        #expect(!pair.isReadable())
        pair.send()
        lg_poll_cache_forget(pair.socket)
        #expect(pair.isReadable(), "a socket opened or closed during the pass is asked again")
        lg_poll_cache_end_pass()
    }

    @Test func eachThreadHasItsOwnPass() throws {
        let pair = try SocketPair()
        lg_poll_cache_begin_pass()
        #expect(!pair.isReadable())
        pair.send()
        // Another thread is outside any pass: it asks the kernel. (A thread of its own: this one must not
        // suspend inside its pass.)
        let socket = pair.socket
        let checked = DispatchSemaphore(value: 0)
        let readableElsewhere = Mutex(false)
        Thread {
            let ready = Self.isReadable(socket)
            readableElsewhere.withLock { $0 = ready }
            checked.signal()
        }.start()
        checked.wait()
        #expect(readableElsewhere.withLock { $0 })
        #expect(!pair.isReadable(), "while this thread's pass goes on")
        lg_poll_cache_end_pass()
    }
}
