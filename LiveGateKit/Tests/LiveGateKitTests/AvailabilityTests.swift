import Foundation
import Testing

/// The package's floors (iOS 13, macOS 10.15) sit below what its code calls (`Duration`, clocks: iOS 16),
/// so that an app with an older deployment target can add it. Linux does not check availability: this
/// test holds every top-level declaration of the SDK to an `@available` attribute, which iOS builds check.
@Suite("LiveGateKit's availability")
struct AvailabilityTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/LiveGateKit")

    /// A declaration at the start of a line, outside any type (top level, or indented once inside the
    /// adapter's `#if`).
    static let declaration =
        #"^(    )?(public |package |internal |private |fileprivate )?(final )?(struct|enum|class|actor|protocol|extension|func) "#

    @Test func everyTopLevelDeclarationSaysWhichIOSItNeeds() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources.path)?.allObjects as? [String])
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20, "the SDK's sources are found")
        let declaration = try Regex(Self.declaration)
        var unmarked: [String] = []
        for file in files {
            let lines = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
                .components(separatedBy: "\n")
            var insideAdapter = false
            for (index, line) in lines.enumerated() {
                if line.hasPrefix("#if") { insideAdapter = true }
                if line.hasPrefix("#endif") { insideAdapter = false }
                guard line.firstMatch(of: declaration) != nil else { continue }
                // Indented declarations count only inside the adapter's `#if`, where they are top level.
                if line.hasPrefix("    ") && !insideAdapter { continue }
                let attributes = lines[..<index].reversed().prefix { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@") }
                if !attributes.contains(where: { $0.contains("@available(iOS") }) {
                    unmarked.append("\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(unmarked.isEmpty, "\(unmarked.joined(separator: "\n"))")
    }
}
