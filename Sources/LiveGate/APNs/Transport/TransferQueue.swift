/// A first-in, first-out queue of transfers for the client's thread: appends and pops in O(1) amortized.
struct TransferQueue {
    private var items: [CurlTransfer] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }

    mutating func append(contentsOf transfers: [CurlTransfer]) {
        items.append(contentsOf: transfers)
    }

    mutating func popFirst() -> CurlTransfer? {
        guard head < items.count else { return nil }
        let first = items[head]
        head += 1
        // Drop the consumed prefix now and then, so the array does not grow without bound.
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return first
    }
}
