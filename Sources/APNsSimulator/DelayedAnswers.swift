import DequeModule
import NIOCore

/// A connection's answers held back by the simulator's latency (`--latency-ms`), sent when they are
/// due, all those due at once in one flush.
///
/// One timer per answer, each writing and flushing on its own, cost a TLS record and a system call per
/// push, and made the simulator spend about twice the CPU per push at a latency as without one: the
/// simulator stands in for APNs, whose CPU is not the gateway's, so its own cost should stay small.
/// Here one timer serves the connection (set for the earliest answer), and the answers due when it
/// fires go out together: the stream channels' flushes are held until the last is written, then one
/// flush reaches HTTP/2 and TLS. No answer leaves before it is due.
///
/// It sits in the connection's pipeline below the HTTP/2 handler (whose streams are multiplexed inline)
/// and above TLS, so every stream's flush passes through it; it lives on the connection's event loop, as
/// its streams do.
final class DelayedAnswers: ChannelOutboundHandler {
    typealias OutboundIn = NIOAny

    private struct Answer {
        let due: NIODeadline
        let send: () -> Void
    }

    /// In due order. Nearly always appended: answers come due in arrival order unless the latency was
    /// lowered, or a token's own delay comes on top.
    private var waiting = Deque<Answer>()
    private var timer: (due: NIODeadline, task: Scheduled<Void>)?
    private var context: ChannelHandlerContext?
    /// Flushes are held while due answers are written.
    private var holdsFlushes = false
    private var flushHeld = false

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.task.cancel()
        timer = nil
        waiting.removeAll()
        self.context = nil
    }

    /// Runs `send` (which writes and flushes one stream's answer) at `due`, on the connection's event loop.
    func send(at due: NIODeadline, _ send: @escaping () -> Void) {
        guard let context else { return }
        var index = waiting.endIndex
        while index > waiting.startIndex, waiting[waiting.index(before: index)].due > due {
            index = waiting.index(before: index)
        }
        waiting.insert(Answer(due: due, send: send), at: index)
        if let timer, timer.due <= due { return }
        schedule(at: due, on: context.eventLoop)
    }

    func flush(context: ChannelHandlerContext) {
        if holdsFlushes {
            flushHeld = true
        } else {
            context.flush()
        }
    }

    private func schedule(at due: NIODeadline, on eventLoop: any EventLoop) {
        timer?.task.cancel()
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        timer = (due, eventLoop.scheduleTask(deadline: due) { loopBound.value.sendDue() })
    }

    private func sendDue() {
        timer = nil
        let now = NIODeadline.now()
        holdsFlushes = true
        while let first = waiting.first, first.due <= now {
            waiting.removeFirst()
            first.send()
        }
        holdsFlushes = false
        // An answer's write may have closed the connection, which removes this handler.
        guard let context = self.context else { return }
        if flushHeld {
            flushHeld = false
            context.flush()
        }
        if let next = waiting.first { schedule(at: next.due, on: context.eventLoop) }
    }
}
