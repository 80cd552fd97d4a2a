import APNsClient
import APNsCore
import LiveGateDomain

/// One dispatch's page going out: its devices, the flag that stops it, and where it stands against
/// its app's priority budget (nil: not budgeted).
struct OutgoingPage: Sendable {
    let dispatch: Dispatch
    let targets: [FanoutTarget]
    let stop: DispatchStopFlag
    var standing: PriorityStanding? = nil
}

/// The one way a delivery's pushes leave: pages of one app's dispatches (a fan-out's page, or the pages
/// of a batch of small dispatches, each its dispatch's only one) go out as one set of pushes, in
/// batches (the in-flight limit paces them), and each page's answers are tallied. A push whose dispatch
/// was stopped before its batch got its turn does not go. Pushes a page left unanswered while others
/// of it got through are sent again before the page is tallied (`UnansweredResend`).
struct PageSending: DeliveryStage {
    let context: DeliveryContext

    /// Each page's outcome, in the order given.
    func send(_ pages: [OutgoingPage], to destination: APNsDestination) async -> [PageOutcome] {
        var ids = APNsIDGenerator()
        var pushes: [LiveActivityPush] = []
        var lowered = 0
        let batchSize = settings.pushesPerBatch
        for page in pages {
            let pagePushes = page.dispatch.pushes(
                to: page.targets, standing: page.standing, ids: &ids, payloadSharedBy: batchSize)
            if pushes.isEmpty { pushes = pagePushes } else { pushes += pagePushes }
            if let standing = page.standing {
                lowered += page.targets.count { standing.isLowered(frequentPushesEnabled: $0.frequentPushesEnabled) }
            }
        }
        if lowered > 0 { GatewayMetrics.priorityLowered(lowered) }
        let stops = PageStops(pages.map { ($0.targets.count, $0.stop) })
        let sent = await sending.send(pushes, inBatchesOf: batchSize, to: destination, stopped: stops.isStopped)
        var outcomes = [PageOutcome?](repeating: nil, count: pages.count)
        var resent: [(index: Int, page: OutgoingPage, results: [SentPush?])] = []
        // From the last page back, each push moved into its result (`removeLast`), not copied: a copy
        // retains its token and payload, and freeing the pushes would release them again.
        var remaining = consume pushes
        for (index, page) in pages.enumerated().reversed() {
            let count = page.targets.count
            let start = remaining.count - count
            let results = [SentPush?](unsafeUninitializedCapacity: count) { results, initialized in
                for offset in (0..<count).reversed() {
                    let push = remaining.removeLast()
                    let result: SentPush?
                    if let outcome = sent[start + offset] {
                        result = SentPush(result: outcome.result, retries: outcome.retries, throttling: outcome.throttling, push: push)
                    } else {
                        result = nil
                    }
                    (results.baseAddress! + offset).initialize(to: result)
                }
                initialized = count
            }
            if UnansweredResend.mayHelp(results) {
                resent.append((index, page, results))
            } else {
                outcomes[index] = PageOutcome(
                    page: page.targets, results: results, dispatch: page.dispatch,
                    recordsPushes: queue.wantsPushEvents(for: page.dispatch))
            }
        }
        guard !resent.isEmpty else { return outcomes.map { $0! } }
        // Pages wait for their resends side by side: each round's pause is one page's, not the sum.
        await withTaskGroup(of: (Int, PageOutcome).self) { group in
            for var waiting in resent {
                group.addTask {
                    await UnansweredResend(context: context)
                        .resend(&waiting.results, of: waiting.page.dispatch, to: destination, unless: waiting.page.stop)
                    return (
                        waiting.index,
                        PageOutcome(
                            page: waiting.page.targets, results: waiting.results, dispatch: waiting.page.dispatch,
                            recordsPushes: queue.wantsPushEvents(for: waiting.page.dispatch))
                    )
                }
            }
            for await (index, outcome) in group { outcomes[index] = outcome }
        }
        return outcomes.map { $0! }
    }
}
