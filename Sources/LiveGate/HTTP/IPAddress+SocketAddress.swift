import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension IPAddress {
    /// The address of a TCP peer, read from the socket address's bytes. Every request needs its peer,
    /// and going through NIO's `ipAddress` text costs an `inet_ntop` and an `inet_pton` each time.
    public init?(_ socketAddress: SocketAddress) {
        switch socketAddress {
        case .v4(let address):
            var raw = address.address.sin_addr
            self.init(bytes: withUnsafeBytes(of: &raw) { Array($0) })
        case .v6(let address):
            var raw = address.address.sin6_addr
            self.init(bytes: withUnsafeBytes(of: &raw) { Array($0) })
        case .unixDomainSocket:
            return nil
        }
    }
}
