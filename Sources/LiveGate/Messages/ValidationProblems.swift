/// The problems found in one request body, each naming its field, collected so a caller learns about
/// all of them at once. How the API answers them is its own (`ValidationProblems+APIError`).
final class ValidationProblems {
    private(set) var messages: [String] = []

    init() {}

    func add(_ message: String) {
        messages.append(message)
    }

    var isEmpty: Bool { messages.isEmpty }
}
