import APNsClient
import ArgumentParser
import Foundation

/// `livegate provider-token`: signs one APNs provider token with a `.p8` key and prints it, for sending
/// to APNs (or the simulator) by hand or from a benchmark: `curl -H "authorization: bearer $(livegate
/// provider-token ...)"`. APNs accepts a token for an hour after its `iat`.
struct ProviderTokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provider-token",
        abstract: "Print an APNs provider token (ES256 JWT) signed with a .p8 key; valid for an hour.")

    @Option(help: "The 10-character Apple team id (the token's iss).") var teamId: String
    @Option(help: "The key's 10-character id (the token's kid).") var keyId: String
    @Option(help: "Path to the .p8 signing key (PKCS#8 PEM, P-256).") var keyFile: String

    func run() throws {
        let pem = try readKeyFile(keyFile)
        let key: P256SigningKey
        do {
            key = try P256SigningKey(pem: pem)
        } catch {
            throw CLIError("--key-file is not a PKCS#8 PEM P-256 private key (an APNs .p8 file)")
        }
        let token = try ProviderToken.sign(teamID: teamId, keyID: keyId, key: key, issuedAt: Date())
        print(token.value)
    }
}
