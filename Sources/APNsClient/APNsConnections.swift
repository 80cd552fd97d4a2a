import Synchronization

/// One HTTP/2 client per APNs host and team: APNs ties a connection to the team whose token opened
/// it, and each client keeps its connections open between requests.
final class APNsConnections: Sendable {
    private struct Key: Hashable {
        let endpoint: String
        let teamID: String
    }

    private let configuration: HTTP2ClientConfiguration
    private let clients = Mutex([Key: CurlHTTP2Client]())

    /// `responseHeaderNames`: the answer's headers the caller reads; the others are not kept.
    init(configuration: HTTP2ClientConfiguration, responseHeaderNames: Set<String>) {
        var configuration = configuration
        configuration.responseHeaderNames = responseHeaderNames
        self.configuration = configuration
    }

    /// `baseURL`: the host's URL without a trailing slash (`APNsEndpoint.baseURL`, `managementBaseURL`).
    func client(baseURL: String, teamID: String) -> CurlHTTP2Client {
        let key = Key(endpoint: baseURL, teamID: teamID)
        return clients.withLock { clients in
            if let client = clients[key] { return client }
            let client = CurlHTTP2Client(configuration: configuration, name: "livegate-apns")
            clients[key] = client
            return client
        }
    }

    func shutdown() async {
        let all = clients.withLock { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
        for client in all { await client.shutdown() }
    }
}
