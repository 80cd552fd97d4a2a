import APNsCore

extension Dispatch {
    /// An `end`, or an update whose payload carries an alert: what the person must see at once keeps
    /// priority 10 past any budget. Read from the payload LiveGate built, once per budgeted update.
    package var keepsPriorityPastBudget: Bool {
        if event == .end { return true }
        guard let payload = try? JSONValue.parse(payload) else { return false }
        return payload["aps"]?["alert"] != nil
    }
}
