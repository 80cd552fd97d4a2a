import CCurl
import CurlPollCache
import DequeModule
import Foundation
import Synchronization

/// One libcurl multi handle and the thread that drives it: a share of a `CurlHTTP2Client`'s
/// connections and the requests sent on them.
///
/// libcurl blocks in `curl_multi_poll`, so the handle lives on a thread of its own: callers hand
/// requests over through a locked queue and `curl_multi_wakeup`, and are resumed from that thread.
/// The thread owns the multi handle and every easy handle, reuses easy handles between requests, and
/// frees each exactly once when it stops.
final class CurlLane: Sendable {
    private struct Inbox {
        var queue: [CurlTransfer] = []
        var isShutDown = false
        /// Callers of `shutdown()` waiting for the thread to close everything.
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
        /// Set by the thread before it frees the multi handle: from then on nobody may wake it.
        var hasStopped = false
        /// A wake-up is on its way: requests queued meanwhile need no other (one syscall, not one per push).
        var wakeupPending = false
    }

    private static let globalInit: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()
    /// Easy handles kept for reuse: as many as are commonly in flight, so a busy client neither makes
    /// nor frees handles in its steady state.
    private static let idleHandleLimit = 4096

    /// This lane's share of the client's settings: its connections, and the requests they carry at once.
    let configuration: HTTP2ClientConfiguration
    private let multi: CurlMultiHandle
    private let inbox = Mutex(Inbox())

    init(configuration: HTTP2ClientConfiguration, name: String) {
        precondition(Self.globalInit, "curl_global_init failed")
        self.configuration = configuration
        self.multi = CurlMultiHandle(configuration: configuration)
        let thread = Thread { [self] in
            // Named from inside: a new thread starts with its creator's name (one of Dispatch's, in `top -H`
            // or `perf`), and on Linux Foundation's `Thread.name` reaches the system thread only once the
            // creating thread has recorded it, which may come later. So it is also written where Linux keeps
            // it (proc(5), 15 bytes).
            let shortName = String(decoding: name.utf8.prefix(15), as: UTF8.self)
            Thread.current.name = shortName
            if let comm = fopen("/proc/thread-self/comm", "w") {
                fputs(shortName, comm)
                fclose(comm)
            }
            self.runLoop()
        }
        thread.start()
    }

    /// Queues transfers for the lane's thread, or fails them if the client is shut down.
    func hand(_ transfers: [CurlTransfer]) {
        // Woken under the lock, so the wake-up cannot reach a multi handle the thread has freed.
        let accepted = inbox.withLock { inbox -> Bool in
            guard !inbox.isShutDown else { return false }
            inbox.queue.append(contentsOf: transfers)
            if !inbox.wakeupPending {
                inbox.wakeupPending = true
                curl_multi_wakeup(multi.handle)
            }
            return true
        }
        if !accepted {
            let shutDown = HTTP2TransportError(.shutDown, "the HTTP/2 client is shut down")
            for transfer in transfers { transfer.completion.finish(.failure(shutDown)) }
        }
    }

    /// Fails requests still waiting or in flight, closes the connections and ends the thread.
    func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyStopped = inbox.withLock { inbox -> Bool in
                inbox.isShutDown = true
                if inbox.hasStopped { return true }
                inbox.stopWaiters.append(continuation)
                curl_multi_wakeup(multi.handle)
                return false
            }
            if alreadyStopped { continuation.resume() }
        }
    }

    // MARK: - The lane's thread

    private func runLoop() {
        // What to start, hold or fail is `admission`'s to decide; this loop carries it out with libcurl.
        var admission = LaneAdmission<CurlTransfer>()
        var active = ActiveTransfers()
        var idle: [LaneEasyHandle] = []
        // The transfers libcurl reports finished in a pass: their handles and results.
        var finished: [(easy: UnsafeMutableRawPointer, result: CURLcode)] = []
        let watch = ConnectionWatch(timeout: configuration.responseTimeout)
        let sockets = CurlSockets()
        // The lane's own copy, which its header callbacks read for every answer: the client's is shared
        // with the other lanes' threads.
        let keptHeaders = configuration.keptResponseHeaders.map { names in names.map { $0 } }
        // A handle whose transfer ended goes back for reuse, up to the limit.
        func recycle(_ handle: LaneEasyHandle) {
            if idle.count < Self.idleHandleLimit {
                idle.append(handle)
            } else {
                handle.cleanup()
            }
        }
        // Takes a transfer out of libcurl (and `active`, its caller's part), tells its caller how it ended
        // and keeps its handle for reuse. It leaves the lane first: the caller may free it once told.
        func end(
            _ transfer: CurlTransfer, on easy: UnsafeMutableRawPointer, _ outcome: consuming Result<HTTP2Response, HTTP2TransportError>
        ) {
            curl_multi_remove_handle(multi.handle, easy)
            let handle = transfer.handle
            transfer.leaveLane()
            transfer.completion.finish(consume outcome)
            if let handle { recycle(handle) }
        }
        // Takes a started transfer out of libcurl and fails it.
        func fail(_ handle: LaneEasyHandle, _ transfer: CurlTransfer, _ error: HTTP2TransportError) {
            active.remove(transfer)
            end(transfer, on: handle.easy, .failure(error))
        }
        // Hands a transfer to libcurl on a handle configured for its scheme; false (and the transfer
        // failed) when it could not be.
        @discardableResult
        func start(_ transfer: CurlTransfer) -> Bool {
            guard let handle = idle.popLast() ?? LaneEasyHandle() else {
                transfer.completion.finish(.failure(HTTP2TransportError(.invalidRequest, "curl_easy_init failed")))
                return false
            }
            let cleartext = CurlRequestSetup.isCleartext(transfer.request.url)
            if handle.configuredCleartext != cleartext {
                if handle.configuredCleartext != nil { curl_easy_reset(handle.easy) }
                handle.forgetOptions()
                if let problem = CurlRequestSetup.configure(
                    handle.easy, configuration: configuration, cleartext: cleartext, sockets: sockets)
                {
                    idle.append(handle)
                    transfer.completion.finish(.failure(problem))
                    return false
                }
                handle.configuredCleartext = cleartext
            }
            if let problem = CurlRequestSetup.apply(transfer, to: handle) {
                idle.append(handle)
                transfer.completion.finish(.failure(problem))
                return false
            }
            transfer.handle = handle
            transfer.watch = watch
            transfer.keptHeaders = keptHeaders
            active.add(transfer, on: handle.easy)
            curl_multi_add_handle(multi.handle, handle.easy)
            return true
        }
        while true {
            let (incoming, stopping) = inbox.withLock { inbox in
                defer {
                    inbox.queue = []
                    inbox.wakeupPending = false
                }
                return (inbox.queue, inbox.isShutDown)
            }
            admission.enqueue(incoming)
            if stopping {
                let shutDown = HTTP2TransportError(.shutDown, "the HTTP/2 client shut down before an answer came")
                for transfer in admission.drain() { transfer.completion.finish(.failure(shutDown)) }
                for transfer in active.removeAll() {
                    if let handle = transfer.handle {
                        curl_multi_remove_handle(multi.handle, handle.easy)
                        handle.cleanup()
                    }
                    transfer.leaveLane()
                    transfer.completion.finish(.failure(shutDown))
                }
                break
            }
            // A transfer that could not be handed to libcurl leaves its room to the next pass.
            let room = configuration.maximumTransfersInProgress - active.count
            if room > 0, admission.waitingCount > 0 {
                for decision in admission.admit(room: room, now: .now) {
                    switch decision {
                    case .start(let transfer): start(transfer)
                    case .fail(let transfer, let refusal): transfer.completion.finish(.failure(refusal))
                    }
                }
            }
            var running: Int32 = 0
            // libcurl checks each transfer's socket with a poll of its own: within the pass, a socket
            // already found quiet is not asked again (`CurlPollCache`).
            lg_poll_cache_begin_pass()
            curl_multi_perform(multi.handle, &running)
            lg_poll_cache_end_pass()
            var remaining: Int32 = 0
            let now = ContinuousClock.now
            // Every message is read before any handle leaves libcurl: removing a handle makes libcurl 7.88
            // look through the messages not yet read for one of that handle's, so removing each as its
            // message is read would walk the rest of the pass's messages once per finished transfer.
            finished.removeAll(keepingCapacity: true)
            while let message = curl_multi_info_read(multi.handle, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                finished.append((easy, message.pointee.data.result))
            }
            var refused: [(CurlTransfer, HTTP2TransportError)] = []
            for (easy, result) in finished {
                guard let transfer = active.remove(on: easy) else { continue }
                let outcome = CurlRequestSetup.outcome(of: transfer, easy: easy, result: result)
                watch.requestEnded(transfer, answered: outcome.hasAnswer, now: now)
                // When no connection to its endpoint could be opened, the requests still waiting for one
                // there fail too rather than each trying a connection of its own. Decided before the
                // transfer ends, as ending it hands its outcome over.
                refused += admission.ended(transfer, outcome: outcome, inFlight: active.transfers, now: now)
                end(transfer, on: easy, outcome)
            }
            // Once the pass's own endings are through: one that ended by itself meanwhile keeps its outcome.
            for (transfer, refusal) in refused where active.contains(transfer) {
                if let handle = transfer.handle { fail(handle, transfer, refusal) }
            }
            // Connections that answered nothing for the timeout while requests waited on them: their
            // requests fail (removing a handle resets its stream), and the connection is closed.
            let (quiet, nextDeadline) = watch.quietConnections(now: now)
            for connection in quiet {
                let stranded = active.transfers.filter { $0.connection == connection }
                for transfer in stranded {
                    guard let handle = transfer.handle else { continue }
                    transfer.connection = nil
                    fail(handle, transfer, HTTP2TransportError(.timedOut, "the connection answered nothing within \(watch.timeout)"))
                    if transfer.isProbe { admission.probeEnded(transfer.endpoint) }
                }
                sockets.shutDown(connection)
            }
            // Answers freed room for queued requests: start them now rather than after the next wait.
            if admission.waitingCount > 0 && active.count < configuration.maximumTransfersInProgress { continue }
            // Woken by libcurl's sockets and timers, a new request, the next response deadline, or (with
            // transfers in flight) the end of a short wait.
            let untilDeadline = nextDeadline.map { ($0 - now).curlMilliseconds }
            sockets.flush()
            curl_multi_poll(multi.handle, nil, 0, LanePollWait.milliseconds(inFlight: active.count, untilDeadline: untilDeadline), nil)
        }
        for handle in idle { handle.cleanup() }
        let waiters = inbox.withLock { inbox -> [CheckedContinuation<Void, Never>] in
            inbox.hasStopped = true
            defer { inbox.stopWaiters = [] }
            return inbox.stopWaiters
        }
        // Closes the connections now, not whenever the client object goes away.
        multi.cleanup()
        for waiter in waiters { waiter.resume() }
    }
}

/// The multi handle. The lane's thread owns it and frees it once, when it stops; other threads only
/// wake it (`curl_multi_wakeup` is thread-safe), under the lane's lock and never after that.
final class CurlMultiHandle: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    init(configuration: HTTP2ClientConfiguration) {
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed") }
        handle = multi
        lg_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        lg_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maximumConnectionsPerHost)
        lg_curl_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, configuration.maximumStreamsPerConnection)
    }

    /// Called once, by the lane's thread as it ends.
    func cleanup() {
        curl_multi_cleanup(handle)
    }
}
