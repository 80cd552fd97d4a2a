import COpenSSL

/// Why the simulator could not make or load its TLS identity.
package struct SimulatorTLSError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }

    /// A failed OpenSSL step, with the library's first queued reason; the queue is emptied, so a
    /// later call does not report this failure as its own.
    static func openSSL(_ step: String) -> SimulatorTLSError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return SimulatorTLSError("OpenSSL failed \(step)") }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return SimulatorTLSError(
            "OpenSSL failed \(step): \(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
    }
}
