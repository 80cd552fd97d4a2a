import LiveGateDomain
import NIOCore

extension IPAddress {
    /// The address of a TCP peer, read from the socket address's bytes. Every request needs its peer,
    /// and going through NIO's `ipAddress` text costs an `inet_ntop` and an `inet_pton` each time.
    ///
    /// The address is taken at its offset in `sockaddr_in` (4) and `sockaddr_in6` (8), the layouts of
    /// RFC 3493 and Linux, rather than through the `sin_addr`/`sin6_addr` members: the C struct is seen
    /// through both Glibc and NIO's own C module, and which of them the compiler credits with the members
    /// depends on the files compiled alongside: adding an unrelated file to the module broke the build.
    package init?(_ socketAddress: SocketAddress) {
        switch socketAddress {
        case .v4(let address):
            self.init(bytes: withUnsafeBytes(of: address.address) { Array($0[4..<8]) })
        case .v6(let address):
            self.init(bytes: withUnsafeBytes(of: address.address) { Array($0[8..<24]) })
        case .unixDomainSocket:
            return nil
        }
    }
}
