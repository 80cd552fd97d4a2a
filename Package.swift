// swift-tools-version:6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // A file uses members of the modules it imports itself, not of whatever another file imported.
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "livegate",
    // The gateway runs on Linux (and macOS for development). LiveGateKit, the SDK an app adds, is its own
    // package (LiveGateKit/), used here by path for the end-to-end tests.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "livegate", targets: ["LiveGateCLI"]),
        .library(name: "APNsCore", targets: ["APNsCore"]),
        .library(name: "APNsClient", targets: ["APNsClient"]),
        .library(name: "PostgresClient", targets: ["PostgresClient"]),
    ],
    dependencies: [
        .package(path: "LiveGateKit"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // C libraries, linked through pkg-config; each module has a small shim header.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        // The process's memory allocator: Swift's and libcurl's many small blocks, often freed on another
        // thread than made them, cost less in jemalloc than in glibc's malloc (about 5% of a push's CPU).
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"]), .brew(["jemalloc"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),

        // Leaves unsent the RST_STREAM libcurl 7.88 writes for every HTTP/2 stream the server already closed.
        .target(name: "CurlStreamReset"),
        // Answers libcurl 7.88's per-transfer socket checks within one pass from what that pass already saw.
        .target(name: "CurlPollCache"),

        // The civil calendar and UTC timestamp text, shared by PostgresClient and APNsCore; no dependencies.
        .target(name: "CivilTime", swiftSettings: swiftSettings),
        // A UUID's lower-case text (as PostgreSQL prints a uuid and APNs an apns-id) and its two 64-bit
        // words; no dependencies.
        .target(name: "UUIDText", swiftSettings: swiftSettings),

        // PostgreSQL client over libpq: pool, blocking calls on their own threads, typed errors.
        .target(
            name: "PostgresClient",
            dependencies: [
                "CLibPQ",
                "CivilTime",
                "UUIDText",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // Transport-free APNs core: JSON that keeps what it was given, Live Activity payloads, dates,
        // device tokens, APNs answers and key errors.
        .target(
            name: "APNsCore",
            dependencies: ["CivilTime", "UUIDText"],
            swiftSettings: swiftSettings
        ),

        // APNs over HTTP/2 on libcurl: the transport, provider tokens (ES256 on OpenSSL) and the sender.
        // Knows nothing of the gateway: no HTTP server, no database.
        .target(
            name: "APNsClient",
            dependencies: [
                "UUIDText",
                "APNsCore",
                "CCurl",
                "COpenSSL",
                "CurlPollCache",
                "CurlStreamReset",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),

        // SQL migrations, shipped as resources of their own target so `schema/` stays at the top level.
        .target(
            name: "LiveGateSchema",
            path: "schema",
            exclude: ["README.md"],
            sources: ["SchemaResources.swift"],
            resources: [.copy("migrations")]
        ),

        // The gateway, in layers; each imports only those above it, so no layer can call back up.
        // The domain: dispatches, tenancy, keys, audiences, activities and the rules on them, and the
        // protocols the store and the delivery engine meet at. No database, no HTTP, no APNs transport.
        .target(
            name: "LiveGateDomain",
            dependencies: [
                "UUIDText",
                "APNsCore",
                "CivilTime",
                "COpenSSL",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // PostgreSQL: every repository and statement, the dispatch store and its group commit, migrations.
        .target(
            name: "LiveGateStore",
            dependencies: [
                "LiveGateDomain",
                "UUIDText",
                "PostgresClient",
                "LiveGateSchema",
                "APNsCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The delivery engine: leases, pages, batches, retries and what each APNs answer means, over the
        // domain's queue protocols and APNsClient. It knows no SQL.
        .target(
            name: "LiveGateDelivery",
            dependencies: [
                "LiveGateDomain",
                "UUIDText",
                "APNsCore",
                "APNsClient",
                // Webhooks' own HTTP/1.1-or-h2 client (Webhooks/WebhookHTTPClient), on threads of its own.
                "CCurl",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The HTTP API: routes, middleware, request bodies, errors, and the dashboard with its files.
        .target(
            name: "LiveGateAPI",
            dependencies: [
                "LiveGateDomain",
                "UUIDText",
                "APNsCore",
                "APNsClient",
                "CivilTime",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The dashboard's plain HTML, CSS and JavaScript, served as they are (no build step).
            resources: [.copy("Dashboard/Assets")],
            swiftSettings: swiftSettings
        ),
        // The composition root: `Gateway.build` puts the layers together over one pool, with the settings
        // read from the environment and the services that run beside the HTTP server.
        .target(
            name: "LiveGate",
            dependencies: [
                "CJemalloc",
                "LiveGateDomain",
                "LiveGateStore",
                "LiveGateDelivery",
                "LiveGateAPI",
                "UUIDText",
                "PostgresClient",
                "APNsCore",
                "APNsClient",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),

        // An HTTP/2 server that behaves like APNs, for development, tests and benchmarks. It shares
        // only APNsCore's models with what it checks, so it does not echo the client's mistakes.
        .target(
            name: "APNsSimulator",
            dependencies: [
                "APNsCore",
                "UUIDText",
                "COpenSSL",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "LiveGateCLI",
            dependencies: [
                "UUIDText",
                "APNsCore",
                "LiveGate",
                "LiveGateAPI",
                "LiveGateDelivery",
                "LiveGateDomain",
                "LiveGateStore",
                "APNsClient",
                "APNsSimulator",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                "PostgresClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),

        .target(
            name: "TestSupport",
            dependencies: [
                "PostgresClient",
                "APNsCore",
                "LiveGate",
                "LiveGateAPI",
                "LiveGateDelivery",
                "LiveGateDomain",
                "LiveGateStore",
                "APNsClient",
                "APNsSimulator",
                "CCurl",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostgresClientTests",
            dependencies: [
                "UUIDText",
                "PostgresClient",
                "TestSupport",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CivilTimeTests",
            dependencies: ["CivilTime"],
            swiftSettings: swiftSettings
        ),
        // The gateway's domain on its own: a dispatch's life and the other rules, without I/O.
        .testTarget(
            name: "LiveGateDomainTests",
            dependencies: ["LiveGateDomain", "APNsCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APNsCoreTests",
            dependencies: ["APNsCore"],
            swiftSettings: swiftSettings
        ),
        // The libcurl client against real HTTP/2 peers (the simulator, nghttpd, aioapns); no gateway.
        .testTarget(
            name: "APNsClientTests",
            dependencies: [
                "APNsClient",
                "APNsCore",
                "APNsSimulator",
                "CurlPollCache",
                "TestSupport",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The simulator on its own.
        .testTarget(
            name: "APNsSimulatorTests",
            dependencies: ["APNsSimulator", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        // The SDK against the real gateway (`livegate serve`, PostgreSQL, the TLS simulator), ActivityKit's
        // stand-in playing the device.
        .testTarget(
            name: "SDKEndToEndTests",
            dependencies: [
                .product(name: "LiveGateKit", package: "LiveGateKit"),
                .product(name: "ActivityKitStandIn", package: "LiveGateKit"),
                "LiveGate",
                "LiveGateAPI",
                "LiveGateDelivery",
                "LiveGateDomain",
                "LiveGateStore",
                "APNsCore",
                "APNsSimulator",
                "PostgresClient",
                "TestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LiveGateTests",
            dependencies: [
                "LiveGate",
                "LiveGateAPI",
                "LiveGateDelivery",
                "LiveGateDomain",
                "LiveGateStore",
                "APNsCore",
                "APNsClient",
                "APNsSimulator",
                "PostgresClient",
                "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
