import Synchronization

/// One HTTP/2 client per APNs endpoint and team: APNs ties a connection to the team whose token
/// opened it, and each client keeps its connections open between pushes.
final class APNsConnections: Sendable {
    private struct Key: Hashable {
        let endpoint: String
        let teamID: String
    }

    private let configuration: HTTP2ClientConfiguration
    private let clients = Mutex([Key: CurlHTTP2Client]())

    init(configuration: HTTP2ClientConfiguration) {
        var configuration = configuration
        // The sender reads `apns-id` only.
        configuration.responseHeaderNames = ["apns-id"]
        self.configuration = configuration
    }

    func client(endpoint: APNsEndpoint, teamID: String) -> CurlHTTP2Client {
        let key = Key(endpoint: endpoint.baseURL, teamID: teamID)
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
