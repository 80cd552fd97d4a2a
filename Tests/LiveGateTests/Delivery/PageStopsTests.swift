@testable import LiveGateDelivery
import LiveGateDomain
import Testing

/// Which pushes of a set of pages belong to a stopped dispatch: each push is asked by its place among
/// all the pages' pushes.
@Suite("Stops of a set of pages")
struct PageStopsTests {
    @Test func aFanOutsOnePageStopsAllItsPushes() {
        let flag = DispatchStopFlag()
        let stops = PageStops([(count: 4, stop: flag)])
        #expect(!(0..<4).contains { stops.isStopped($0) })
        flag.raise(.cancelled)
        #expect((0..<4).allSatisfy { stops.isStopped($0) })
    }

    /// Pages of 2, 0, 3 and 1 devices (pushes 0–1, none, 2–4 and 5); the third page's dispatch is stopped.
    @Test func onlyTheStoppedPagesPushesAreStopped() {
        let flags = (0..<4).map { _ in DispatchStopFlag() }
        let stops = PageStops(zip([2, 0, 3, 1], flags).map { (count: $0, stop: $1) })
        flags[2].raise(.superseded)
        #expect((0..<6).map { stops.isStopped($0) } == [false, false, true, true, true, false])
        flags[0].raise(.cancelled)
        #expect((0..<6).map { stops.isStopped($0) } == [true, true, true, true, true, false])
    }

    /// Hundreds of one-device pages, as a batch of small dispatches has: each push finds its own page.
    @Test func manySmallPagesEachFindTheirOwn() {
        let flags = (0..<300).map { _ in DispatchStopFlag() }
        let stops = PageStops(flags.map { (count: 1, stop: $0) })
        for index in stride(from: 0, to: 300, by: 7) { flags[index].raise(.cancelled) }
        #expect((0..<300).allSatisfy { stops.isStopped($0) == ($0 % 7 == 0) })
    }
}
