import APNsCore
import Foundation
import LiveGateDomain
import Testing

/// Which priority each device gets under its app's budget, and which budgets can be set.
@Suite("Priority budget")
struct PriorityBudgetTests {
    static let budget = PriorityBudget(perHour: 5, frequentPerHour: 20)!

    @Test func belowTheBudgetUpdatesGoAtTenAndFromItAtFive() {
        for position in 0..<5 {
            let standing = PriorityStanding(budget: Self.budget, position: position, keepsPriority: false)
            #expect(standing.priority(frequentPushesEnabled: nil) == .immediate)
            #expect(standing.priority(frequentPushesEnabled: false) == .immediate)
        }
        let past = PriorityStanding(budget: Self.budget, position: 5, keepsPriority: false)
        #expect(past.priority(frequentPushesEnabled: nil) == .conservesPower)
        #expect(past.priority(frequentPushesEnabled: false) == .conservesPower)
        #expect(past.priority(frequentPushesEnabled: true) == .immediate, "the frequent budget is 20")
        let pastFrequent = PriorityStanding(budget: Self.budget, position: 20, keepsPriority: false)
        #expect(pastFrequent.priority(frequentPushesEnabled: true) == .conservesPower)
    }

    @Test func anEndOrAnAlertKeepsPriorityTenPastAnyBudget() {
        let standing = PriorityStanding(budget: Self.budget, position: 1_000, keepsPriority: true)
        for setting in [nil, false, true] as [Bool?] {
            #expect(standing.priority(frequentPushesEnabled: setting) == .immediate)
            #expect(!standing.isLowered(frequentPushesEnabled: setting))
        }
    }

    @Test func withoutAFrequentBudgetEveryDeviceHasTheStandardOne() {
        let budget = PriorityBudget(perHour: 3)!
        #expect(budget.perHour(frequentPushesEnabled: true) == 3)
        #expect(!budget.readsDeviceSettings)
        #expect(Self.budget.readsDeviceSettings)
        let standing = PriorityStanding(budget: budget, position: 3, keepsPriority: false)
        #expect(standing.priority(frequentPushesEnabled: true) == .conservesPower)
    }

    @Test func aBudgetOutOfRangeOrAFrequentOneBelowTheStandardIsNone() {
        #expect(PriorityBudget(perHour: 0) == nil)
        #expect(PriorityBudget(perHour: 100_001) == nil)
        #expect(PriorityBudget(perHour: 10, frequentPerHour: 9) == nil)
        #expect(PriorityBudget(perHour: 10, frequentPerHour: 100_001) == nil)
        #expect(PriorityBudget(perHour: 10, frequentPerHour: 10) != nil)
        #expect(PriorityBudget(perHour: 100_000) != nil)
    }

    /// A count says which kinds of device an update goes to, so it is counted as sent at priority 10
    /// only if some device gets it so.
    @Test func aCountKnowsWhichBudgetsItsDevicesHave() {
        let dispatch = Dispatch(
            workspaceID: UUID(), appID: UUID(), event: .update, activityID: "a", externalID: nil, payload: [], priority: .immediate,
            expiresAt: Date())
        let token = PushToken(hex: String(repeating: "ab", count: 32))!
        let mixed = PriorityCount(
            dispatch: dispatch, budget: Self.budget,
            targets: [
                FanoutTarget(cursor: 1, token: token, frequentPushesEnabled: true), FanoutTarget(cursor: 2, token: token),
            ])
        #expect(mixed.toFrequentDevices && mixed.toStandardDevices)
        let frequentOnly = PriorityCount(
            dispatch: dispatch, budget: Self.budget, targets: [FanoutTarget(cursor: 1, token: token, frequentPushesEnabled: true)])
        #expect(frequentOnly.toFrequentDevices && !frequentOnly.toStandardDevices)
        let refused = PriorityCount(
            dispatch: dispatch, budget: Self.budget, targets: [FanoutTarget(cursor: 1, token: token, frequentPushesEnabled: false)])
        #expect(!refused.toFrequentDevices && refused.toStandardDevices)
    }
}

extension PriorityBudgetTests {
    @Test(arguments: [
        (LiveActivityEvent.update, #"{"aps":{"timestamp":1,"event":"update","content-state":{"alert":1}}}"#, false),
        (.update, #"{"aps":{"timestamp":1,"event":"update","content-state":{},"alert":{"title":"Goal"}}}"#, true),
        (.end, #"{"aps":{"timestamp":1,"event":"end","content-state":{}}}"#, true),
    ])
    func anEndOrAnAlertInTheApsKeepsPriority(event: LiveActivityEvent, payload: String, keeps: Bool) {
        let dispatch = Dispatch(
            workspaceID: UUID(), appID: UUID(), event: event, activityID: "a", externalID: nil, payload: Array(payload.utf8),
            priority: .immediate, expiresAt: Date())
        #expect(dispatch.keepsPriorityPastBudget == keeps)
    }
}
