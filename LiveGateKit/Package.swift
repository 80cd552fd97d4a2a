// swift-tools-version:6.0
import PackageDescription

// LiveGateKit, the iOS SDK of LiveGate: an app adds this package and nothing else comes with it.
// No package dependencies. On Linux (where its tests run) it compiles its ActivityKit adapter against
// `ActivityKit`, a stand-in of Apple's framework in this package; on iOS, against Apple's.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "LiveGateKit",
    // The lowest floors Swift concurrency allows. The SDK's calls need iOS 16 (Swift's `Duration` and
    // clocks), its ActivityKit calls 16.1 and later; each is marked `@available`, so an app with an
    // older deployment target adds the package and guards its calls with `#available`.
    platforms: [.iOS(.v13), .macOS(.v10_15)],
    products: [
        .library(name: "LiveGateKit", targets: ["LiveGateKit"]),
        // For tests on Linux only: ActivityKit's stand-in, with controls that play the device.
        .library(name: "ActivityKitStandIn", targets: ["ActivityKit"]),
    ],
    targets: [
        .target(
            name: "LiveGateKit",
            dependencies: [.target(name: "ActivityKit", condition: .when(platforms: [.linux]))],
            swiftSettings: swiftSettings + [.define("LIVEGATEKIT_ACTIVITYKIT_STAND_IN", .when(platforms: [.linux]))]
        ),
        // Apple's ActivityKit as documented, the symbols the SDK uses, for Linux: named ActivityKit so the
        // SDK's adapter compiles against it unchanged.
        .target(name: "ActivityKit", swiftSettings: swiftSettings),
        .testTarget(
            name: "LiveGateKitTests",
            dependencies: ["LiveGateKit", .target(name: "ActivityKit", condition: .when(platforms: [.linux]))],
            swiftSettings: swiftSettings
        ),
    ]
)
