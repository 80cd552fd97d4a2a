/// Whether each push of a set of pages (their devices in order, page after page) belongs to a dispatch
/// that was stopped. Asked for every push, by the threads sending the pages' batches side by side.
struct PageStops: Sendable {
    /// Where each page's pushes end: a batch of small dispatches has hundreds of pages, and a push's
    /// page is found by bisection.
    private let pageEnds: [Int]
    private let stops: [DispatchStopFlag]

    init(_ pages: [(count: Int, stop: DispatchStopFlag)]) {
        var end = 0
        pageEnds = pages.map { page in
            end += page.count
            return end
        }
        stops = pages.map(\.stop)
    }

    func isStopped(_ push: Int) -> Bool {
        var low = 0
        var high = pageEnds.count
        while low < high {
            let middle = (low + high) / 2
            if pageEnds[middle] > push { high = middle } else { low = middle + 1 }
        }
        return low < stops.count && stops[low].raised != nil
    }
}
