import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOCore
import Testing

@Suite("CIDR parsing and matching")
struct IPNetworkTests {
    @Test(arguments: [
        ("10.0.0.0/8", "10.255.1.2", true), ("10.0.0.0/8", "11.0.0.1", false),
        ("192.168.1.7", "192.168.1.7", true), ("192.168.1.7", "192.168.1.8", false),
        ("0.0.0.0/0", "8.8.8.8", true), ("172.16.0.0/12", "172.31.255.255", true), ("172.16.0.0/12", "172.32.0.0", false),
        ("2001:db8::/32", "2001:db8:ffff::1", true), ("2001:db8::/32", "2001:db9::1", false),
        ("::1", "::1", true), ("fe80::/10", "febf::1", true), ("fe80::/10", "fec0::1", false),
        // IPv4-mapped IPv6 peers (dual-stack sockets) match IPv4 networks, and only those.
        ("127.0.0.0/8", "::ffff:127.0.0.1", true), ("::/0", "127.0.0.1", false),
    ])
    func contains(network: String, address: String, expected: Bool) throws {
        let parsed = try #require(IPNetwork(network))
        let candidate = try #require(IPAddress(address))
        #expect(parsed.contains(candidate) == expected)
    }

    /// A request's peer is read from its socket address's bytes: the same address its text gives.
    @Test(arguments: ["127.0.0.1", "10.1.2.3", "255.255.255.255", "::1", "2001:db8::7", "::ffff:192.0.2.9", "fe80::1"])
    func peerAddressFromTheSocketIsTheAddressItsTextNames(text: String) throws {
        let socket = try SocketAddress(ipAddress: text, port: 443)
        #expect(IPAddress(socket) == IPAddress(text))
    }

    @Test func aUnixSocketPeerHasNoIPAddress() throws {
        #expect(IPAddress(try SocketAddress(unixDomainSocketPath: "/tmp/livegate.sock")) == nil)
    }

    @Test func hostBitsAreClearedAndBareAddressesAreSingleHosts() throws {
        #expect(IPNetwork("10.1.2.3/8")?.description == "10.0.0.0/8")
        #expect(IPNetwork("2001:db8::1/32")?.description == "2001:db8::/32")
        #expect(IPNetwork("192.0.2.1")?.description == "192.0.2.1/32")
        #expect(IPNetwork("::1")?.description == "::1/128")
    }

    @Test(arguments: ["", "10.0.0.0/33", "::/129", "10.0.0/8", "10.0.0.0/-1", "10.0.0.0/+8", "host.example", "1.2.3.4/8/9"])
    func rejectsWhatIsNotCIDR(text: String) {
        #expect(IPNetwork(text) == nil)
    }
}
