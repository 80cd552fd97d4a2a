/// Why the control API refused a request body; the message goes back in `{"error": …}`.
struct ControlRequestError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
