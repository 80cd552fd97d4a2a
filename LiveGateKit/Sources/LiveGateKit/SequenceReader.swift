/// One async sequence read element by element through a closure of a concrete type. The tasks that
/// follow ActivityKit's sequences hold this instead of the sequence, whose generic type (and its
/// metatype) a task's closure would otherwise capture; each reader is read by one task only.
@available(iOS 16.0, macOS 13.0, *)
struct SequenceReader<Element>: @unchecked Sendable {
    let next: () async throws -> Element?

    init<Elements: AsyncSequence>(_ elements: sending Elements) where Elements.Element == Element {
        var iterator = elements.makeAsyncIterator()
        next = { try await iterator.next() }
    }

    /// Reads what `transform` makes of each element, skipping those it makes nil of.
    init<Elements: AsyncSequence>(_ elements: sending Elements, compactMap transform: @escaping (Elements.Element) -> Element?) {
        var iterator = elements.makeAsyncIterator()
        next = {
            while let element = try await iterator.next() {
                if let made = transform(element) { return made }
            }
            return nil
        }
    }
}
