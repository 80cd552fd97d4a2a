import Foundation
import HTTPTypes
import LiveGateDomain

/// Decides which address a request comes from. Without trusted proxies it is the TCP peer, so a client
/// cannot claim another address. Behind a trusted load balancer it is the right-most `X-Forwarded-For`
/// entry that is not itself a trusted proxy.
package struct ClientAddressResolver: Sendable {
    let trustedProxies: [IPNetwork]

    package init(trustedProxies: [IPNetwork]) {
        self.trustedProxies = trustedProxies
    }

    package func clientAddress(peer: IPAddress?, headers: HTTPFields) -> IPAddress? {
        guard let peer, isTrusted(peer) else { return peer }
        let forwarded = headers[values: .xForwardedFor]
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        var client = peer
        for hop in forwarded.reversed() {
            guard let address = IPAddress(hop) else { break }
            client = address
            if !isTrusted(address) { break }
        }
        return client
    }

    private func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let xRequestID = HTTPField.Name("X-Request-Id")!
}
