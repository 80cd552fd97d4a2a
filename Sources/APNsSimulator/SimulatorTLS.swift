import NIOSSL

/// The certificate and key the simulator serves TLS with.
package enum SimulatorTLS: Sendable {
    /// PEM files: a certificate (or chain, leaf first) and its private key.
    case files(certificateFile: String, privateKeyFile: String)
    /// PEM text, such as a `SelfSignedCertificate` made at start.
    case pem(certificate: String, privateKey: String)

    /// A server context that offers only h2, as APNs does.
    func makeContext() throws -> NIOSSLContext {
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        switch self {
        case .files(let certificateFile, let privateKeyFile):
            chain = try NIOSSLCertificate.fromPEMFile(certificateFile)
            key = try NIOSSLPrivateKey(file: privateKeyFile, format: .pem)
        case .pem(let certificate, let privateKey):
            chain = try NIOSSLCertificate.fromPEMBytes(Array(certificate.utf8))
            key = try NIOSSLPrivateKey(bytes: Array(privateKey.utf8), format: .pem)
        }
        var settings = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        settings.applicationProtocols = ["h2"]
        return try NIOSSLContext(configuration: settings)
    }
}
