import Foundation

/// Braze's `liveActivities` calls, on LiveGate. The calls that take ActivityKit types (`launchActivity`,
/// `resumeActivities`, `registerPushToStart`, `startActivity`) are in the ActivityKit adapter; they
/// come down to the ones here, which take plain values and async sequences and are what runs on Linux.
@available(iOS 16.0, macOS 13.0, *)
public final class LiveActivities: Sendable {
    let outbox: Outbox
    let channels: ChannelLookup
    let errors: AsyncStream<LiveGateError>.Continuation
    let firstTokenWait: Duration
    let tracking = TrackingTasks()
    let device = DeviceSettings()

    init(outbox: Outbox, channels: ChannelLookup, errors: AsyncStream<LiveGateError>.Continuation, firstTokenWait: Duration) {
        self.outbox = outbox
        self.channels = channels
        self.errors = errors
        self.firstTokenWait = firstTokenWait
    }

    /// Registers (or, with nil, removes) an activity's update token under its tag. `attributesType`, the
    /// activity's ActivityAttributes type (`attributesTypeName(of:)`), goes with it as
    /// `activity_attributes_type`: the gateway checks the activity's updates against that type's schema.
    public func reportUpdateToken(_ token: Data?, tag: String, attributesType: String? = nil) async {
        await outbox.enqueue(.updateToken, subject: tag, token: token?.hexToken, attributesType: attributesType)
    }

    /// Registers (or, with nil, removes) the push-to-start token of an ActivityAttributes type.
    public func reportPushToStartToken(_ token: Data?, type: String) async {
        await outbox.enqueue(.pushToStartToken, subject: type, token: token?.hexToken)
    }

    /// Reports an activity's state on this device, at the device's time of the change, with whether the
    /// person allows frequent updates when that is known (`reportFrequentPushesEnabled`).
    public func reportState(_ state: LiveActivityState, tag: String, channelID: String? = nil, at date: Date = Date()) async {
        device.noteState(state, tag: tag, channelID: channelID)
        await outbox.enqueue(
            .state, subject: tag, state: state, channelID: channelID, reportedAt: date,
            frequentPushesEnabled: device.frequentPushesEnabled)
    }

    /// Whether the person allows frequent updates ("More Frequent Updates" in Settings; ActivityKit's
    /// `frequentPushesEnabled`, which the ActivityKit calls follow themselves). It goes with every state
    /// report from now on, and when it changes, each activity not over yet reports its last state again
    /// with it, so the gateway knows which budget of priority-10 updates the device has.
    public func reportFrequentPushesEnabled(_ enabled: Bool) async {
        guard device.setFrequentPushesEnabled(enabled) else { return }
        for (tag, last) in device.activitiesNotOver {
            await reportState(last.state, tag: tag, channelID: last.channelID)
        }
    }

    /// Removes this device's push-to-start tokens of these types, and stops following their tokens: no
    /// start reaches the device through them.
    public func unregisterPushToStart(types: [String]) async {
        for type in types {
            tracking.cancelPushToStart(type)
            await reportPushToStartToken(nil, type: type)
        }
    }

    /// Braze's `unregisterPushToStart()`: stops following the push-to-start tokens of every type and
    /// removes each this device registered, in the outbox. No start reaches the device until a type is
    /// registered again.
    public func unregisterPushToStart() {
        tracking.cancelAllPushToStart()
        Task { await outbox.removePushToStartRegistrations() }
    }

    /// The broadcast channel of an activity (`GET /push_channel`), nil when it has none.
    public func channelID(forActivity activityID: String) async throws -> String? {
        try await channels.channelID(forActivity: activityID)
    }

    /// Follows one activity until it ends: each push token it gets is registered under `tag` (with
    /// `attributesType`, its ActivityAttributes type, when given), its `currentState` and each later one
    /// reported (with `channelID` when it follows a channel). `activityID` (ActivityKit's `id`) is kept
    /// with the tag, so `resumeActivities` finds it again after a relaunch.
    ///
    /// Order: an activity updated by token (no `channelID`) reports its first state once its first token
    /// is queued, or its tokens or states ended, or `firstTokenWait` passed. The outbox sends in the order
    /// reports are queued, so the gateway stores the token before the state that confirms a start: a
    /// confirmed start can be updated.
    @discardableResult
    public func trackActivity<Tokens: AsyncSequence, States: AsyncSequence>(
        tag: String, activityID: String? = nil, attributesType: String? = nil, channelID: String? = nil,
        currentState: LiveActivityState? = nil, pushTokens: sending Tokens, states: sending States
    ) -> Task<Void, Never> where Tokens.Element == Data, States.Element == LiveActivityState {
        let outbox = outbox
        let pushTokens = SequenceReader(pushTokens)
        let states = SequenceReader(states)
        let gate = StateReportGate(open: channelID != nil) { [self] state, date in
            await reportState(state, tag: tag, channelID: channelID, at: date)
        }
        let tokens = Task { [self] in
            do {
                while let token = try await pushTokens.next() {
                    await reportUpdateToken(token, tag: tag, attributesType: attributesType)
                    await gate.open()
                }
            } catch {}
            await gate.open()
        }
        let wait = Task { [firstTokenWait] in
            try? await Task.sleep(for: firstTokenWait)
            if !Task.isCancelled { await gate.open() }
        }
        let task = Task {
            if let activityID { await outbox.rememberTag(tag, forActivity: activityID) }
            // ActivityKit's state updates start after the current state: it is reported first, so a
            // started activity confirms its start and joins its channel at once.
            if let currentState { await gate.state(currentState, at: Date()) }
            var over = currentState?.isOver ?? false
            do {
                if !over {
                    while let state = try await states.next() {
                        await gate.state(state, at: Date())
                        if state.isOver {
                            over = true
                            break
                        }
                    }
                }
            } catch {}
            // Its states ended: what the gate holds goes now. The activity is gone, and so are its tokens.
            // Stopped for another reason (the app shutting down), its tag is kept for `resumeActivities`.
            if !Task.isCancelled { await gate.open() }
            wait.cancel()
            tokens.cancel()
            if over, let activityID { await outbox.forgetActivity(activityID) }
        }
        tracking.add(tokens)
        tracking.add(wait)
        tracking.add(task)
        return task
    }

    /// Follows the push-to-start token of an ActivityAttributes type: each one is registered.
    @discardableResult
    public func trackPushToStart<Tokens: AsyncSequence>(type: String, tokens: sending Tokens) -> Task<Void, Never>
    where Tokens.Element == Data {
        let tokens = SequenceReader(tokens)
        let task = Task { [self] in
            do {
                while let token = try await tokens.next() {
                    if Task.isCancelled { break }
                    await reportPushToStartToken(token, type: type)
                }
            } catch {}
        }
        tracking.addPushToStart(task, type: type)
        return task
    }

    /// The tag an activity was launched with, if this install follows it.
    public func tag(forActivity activityID: String) async -> String? {
        await outbox.tag(forActivity: activityID)
    }

    /// Passes a problem met outside the SDK's own calls (the ActivityKit adapter's) on through `errors`.
    public func publish(_ error: LiveGateError) {
        errors.yield(error)
    }

    func stopTracking() {
        tracking.cancelAll()
    }
}

/// The tasks following activities and tokens, cancelled together when the SDK shuts down; those following
/// push-to-start tokens also by type, for `unregisterPushToStart`.
@available(iOS 16.0, macOS 13.0, *)
final class TrackingTasks: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [Task<Void, Never>] = []
    private var pushToStart: [String: [Task<Void, Never>]] = [:]

    func add(_ task: Task<Void, Never>) {
        lock.lock()
        defer { lock.unlock() }
        tasks.removeAll { $0.isCancelled }
        tasks.append(task)
    }

    func addPushToStart(_ task: Task<Void, Never>, type: String) {
        add(task)
        lock.lock()
        defer { lock.unlock() }
        pushToStart[type, default: []].append(task)
    }

    func cancelPushToStart(_ type: String) {
        lock.lock()
        let following = pushToStart.removeValue(forKey: type) ?? []
        lock.unlock()
        for task in following { task.cancel() }
    }

    func cancelAllPushToStart() {
        lock.lock()
        let following = pushToStart.values.flatMap { $0 }
        pushToStart = [:]
        lock.unlock()
        for task in following { task.cancel() }
    }

    func cancelAll() {
        lock.lock()
        let all = tasks
        tasks = []
        pushToStart = [:]
        lock.unlock()
        for task in all { task.cancel() }
    }
}
