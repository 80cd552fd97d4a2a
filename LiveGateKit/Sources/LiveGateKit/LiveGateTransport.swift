import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the SDK reaches the gateway: one HTTP request, its answer. `URLSessionTransport` by default;
/// tests may put their own in the configuration.
@available(iOS 16.0, macOS 13.0, *)
public protocol LiveGateTransport: Sendable {
    func perform(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// `LiveGateTransport` over a `URLSession`.
@available(iOS 16.0, macOS 13.0, *)
public struct URLSessionTransport: LiveGateTransport {
    let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func perform(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response = response as? HTTPURLResponse {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }.resume()
        }
    }
}
