import Foundation
import TestSupport
import Testing

@Suite("Files operators use outside the code")
struct RepositoryFilesTests {
    static let root = Subprocess.repositoryRoot

    @Test func dockerComposeFileIsValid() async throws {
        let output = try await Subprocess.run(
            "/usr/bin/env", ["docker-compose", "-f", Self.root.appendingPathComponent("docker-compose.yml").path, "config", "-q"])
        #expect(output.status == 0, "\(output.stderr)")
    }

    /// The image runs the binary without the build folder: every resource bundle must be copied beside it.
    @Test func theDockerfileShipsEveryResourceBundle() throws {
        let binFolder = URL(fileURLWithPath: LiveGateBinary.path).deletingLastPathComponent()
        let bundles = try FileManager.default.contentsOfDirectory(atPath: binFolder.path)
            .filter { $0.hasPrefix("livegate_") && $0.hasSuffix(".resources") }
        #expect(bundles.contains("livegate_LiveGateAPI.resources"), "\(bundles)")
        let dockerfile = try String(contentsOf: Self.root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        for bundle in bundles {
            #expect(dockerfile.contains(bundle), "the Dockerfile does not copy \(bundle)")
        }
    }

    /// Every `LIVEGATE_…` or `DATABASE_…` name the sources spell as a string literal appears, in backquotes,
    /// in the configuration reference (docs/configuration.md).
    @Test func configurationReferenceDocumentsEverySetting() throws {
        let reference = try String(
            contentsOf: Self.root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let sources = try FileManager.default.subpathsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
            .filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: Self.root.appendingPathComponent("Sources").appendingPathComponent($0), encoding: .utf8) }
            .joined()
        let pattern = try NSRegularExpression(pattern: #""((?:LIVEGATE_|DATABASE_)[A-Z_]+)""#)
        let names = Set(
            pattern.matches(in: sources, range: NSRange(sources.startIndex..., in: sources)).compactMap {
                Range($0.range(at: 1), in: sources).map { String(sources[$0]) }
            })
        #expect(names.contains("DATABASE_URL"))
        for name in names {
            #expect(reference.contains("`\(name)`"), "docs/configuration.md does not document \(name) (in backquotes)")
        }
    }
}
