/// A first-in, first-out queue: appends and pops in O(1) amortized. Popped slots are dropped now and
/// then rather than on every pop, so the array neither shifts each time nor grows without bound.
struct FIFOQueue<Element> {
    private var items: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    var first: Element? { isEmpty ? nil : items[head] }

    mutating func append(_ element: Element) {
        items.append(element)
    }

    mutating func append(contentsOf elements: [Element]) {
        items.append(contentsOf: elements)
    }

    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let first = items[head]
        head += 1
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

extension FIFOQueue: Sendable where Element: Sendable {}
