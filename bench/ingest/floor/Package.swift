// swift-tools-version:6.0
// bench/ingest's floor: Hummingbird alone answering the `update` calls (see Sources/IngestFloor).
import PackageDescription

let package = Package(
    name: "IngestFloor",
    platforms: [.macOS(.v14)],
    dependencies: [.package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0")],
    targets: [
        .executableTarget(name: "IngestFloor", dependencies: [.product(name: "Hummingbird", package: "hummingbird")])
    ]
)
