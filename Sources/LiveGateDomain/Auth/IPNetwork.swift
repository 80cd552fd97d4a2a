import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address.
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    package let bytes: [UInt8]

    package init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        // Zone ids (fe80::1%eth0) name an interface, not an address: allowlists compare addresses.
        let unzoned = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        if inet_pton(AF_INET6, unzoned, &v6) == 1 {
            self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// An IPv4-mapped IPv6 address (::ffff:a.b.c.d) as the IPv4 address it stands for.
    package var unmapped: IPAddress {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff else {
            return self
        }
        return IPAddress(bytes: Array(bytes[12..<16]))
    }

    package init(bytes: [UInt8]) { self.bytes = bytes }

    package var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        return bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil
                ? String(cString: buffer) : "?"
        }
    }
}

/// An address with a prefix length: `10.0.0.0/8`, `2001:db8::/32`; a bare address is a /32 or /128.
package struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    package let address: IPAddress
    package let prefixLength: Int

    /// Parses CIDR notation. Host bits are cleared, so `10.1.2.3/8` reads as `10.0.0.0/8`.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let maximum = address.bytes.count * 8
        let length: Int
        if parts.count == 2 {
            guard let parsed = Int(parts[1]), (0...maximum).contains(parsed), !parts[1].hasPrefix("+") else { return nil }
            length = parsed
        } else {
            length = maximum
        }
        self.prefixLength = length
        self.address = IPNetwork.masked(address, length)
    }

    /// True when `candidate` lies in this network; IPv4-mapped IPv6 addresses match IPv4 networks.
    package func contains(_ candidate: IPAddress) -> Bool {
        let candidate = address.bytes.count == 4 ? candidate.unmapped : candidate
        guard candidate.bytes.count == address.bytes.count else { return false }
        return IPNetwork.masked(candidate, prefixLength).bytes == address.bytes
    }

    package var description: String { "\(address)/\(prefixLength)" }

    private static func masked(_ address: IPAddress, _ prefixLength: Int) -> IPAddress {
        var bytes = address.bytes
        for index in bytes.indices {
            let bitsKept = max(0, min(8, prefixLength - index * 8))
            bytes[index] &= bitsKept == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - bitsKept))
        }
        return IPAddress(bytes: bytes)
    }
}
