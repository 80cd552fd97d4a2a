/// The problems found in one request body, each naming its field, collected so a caller learns about
/// all of them at once. How the API answers them is its own (`ValidationProblems+APIError`).
package final class ValidationProblems {
    package private(set) var messages: [String] = []

    package init() {}

    package func add(_ message: String) {
        messages.append(message)
    }

    package var isEmpty: Bool { messages.isEmpty }
}
