import APNsCore
import Foundation

/// A dispatch a worker holds the lease on, with where its fan-out got to.
package struct ClaimedDispatch: Sendable {
    package let dispatch: Dispatch
    package let createdAt: Date
    /// The last token row already handled; the fan-out resumes after it.
    package let fanoutCursor: Int64
    /// How many times a worker has claimed it, this claim included.
    package let attempts: Int
    /// The dispatch's broadcast was sent (and recorded) by an earlier claim: it is not sent again.
    package let broadcastRecorded: Bool
    /// Superseded or cancelled before this claim could send anything: it ends at once.
    package var stop: DispatchStop?
    /// The channel the dispatch's broadcast reached (now or by an earlier claim): devices following it
    /// get no token push for this dispatch.
    package var deliveredBroadcastChannel: ChannelID? = nil
    /// A start to an audience: the audience its fan-out pages through, read (and its segment's looked
    /// up) when the delivery begins.
    package var audience: Audience? = nil
    /// Its app's priority budget, for an update or end asked at priority 10 while the app has one:
    /// it is counted before it goes (`DispatchBatchQueue.countPriority`).
    package var priorityBudget: PriorityBudget? = nil
    /// Where it stood against that budget once counted: the priority each device gets.
    package var priorityStanding: PriorityStanding? = nil
    /// Its place against the budget as an earlier claim counted and recorded it (a fan-out's page, a
    /// hand-back): it keeps it, and is not counted again.
    package var countedPosition: Int? = nil

    package init(
        dispatch: Dispatch, createdAt: Date, fanoutCursor: Int64, attempts: Int, broadcastRecorded: Bool, stop: DispatchStop? = nil,
        deliveredBroadcastChannel: ChannelID? = nil, audience: Audience? = nil, countedPosition: Int? = nil
    ) {
        self.dispatch = dispatch
        self.createdAt = createdAt
        self.fanoutCursor = fanoutCursor
        self.attempts = attempts
        self.broadcastRecorded = broadcastRecorded
        self.stop = stop
        self.deliveredBroadcastChannel = deliveredBroadcastChannel
        self.audience = audience
        self.countedPosition = countedPosition
    }
}

extension ClaimedDispatch {
    /// Whether its app's budget applies: an update or end asked at priority 10 (priority 5 never counts;
    /// a start goes at 10 and starts the activity, before any update could count).
    package func isBudgeted(by budget: PriorityBudget?) -> Bool {
        budget != nil && dispatch.event != .start && dispatch.priority == .immediate && stop == nil
    }

    /// A dispatch its commit wrote leased to this gateway's engine (`DeliveryHandoff`): as a first claim
    /// of it would return it.
    package init(handedOver dispatch: Dispatch, createdAt: Date) {
        self.init(
            dispatch: dispatch, createdAt: createdAt, fanoutCursor: 0, attempts: 1, broadcastRecorded: false, stop: nil)
    }
}
