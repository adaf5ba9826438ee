// swift-tools-version: 6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny")
]

/// Where the demo server builds: everywhere but watchOS.
let hummingbirdPlatforms: [Platform] = [
  .macOS, .iOS, .tvOS, .visionOS, .macCatalyst, .linux, .android, .windows, .openbsd,
]

let package = Package(
  name: "Courier",
  defaultLocalization: "en",
  platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
  products: [
    .library(name: "Courier", targets: ["Courier"]),
    .library(name: "CourierStyles", targets: ["CourierStyles"]),
    .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
    .library(name: "CourierTesting", targets: ["CourierTesting"]),
    .library(name: "CourierSQLiteCache", targets: ["CourierSQLiteCache"]),
    .library(name: "CourierCombine", targets: ["CourierCombine"]),
    .library(name: "CourierObservability", targets: ["CourierObservability"]),
    .library(name: "CourierOpenAPI", targets: ["CourierOpenAPI"]),
    .library(name: "CourierOutbox", targets: ["CourierOutbox"]),
    .library(name: "CourierOutboxPostgres", targets: ["CourierOutboxPostgres"]),
    .library(name: "CourierDemoServer", targets: ["CourierDemoServer"]),
    .executable(name: "courier-demo", targets: ["courier-demo"]),
  ],
  traits: [
    .trait(
      name: "SQLiteOutbox",
      description: "The outbox's SQLite store, through GRDB. On by default; a service whose outbox is in PostgreSQL "
        + "may turn it off (traits: []), and GRDB is not built."),
    .default(enabledTraits: ["SQLiteOutbox"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
    .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
    .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
    .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    .package(url: "https://github.com/swift-otel/swift-otel-semantic-conventions.git", from: "1.44.0"),
    .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
    .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
  ],
  targets: [
    .target(
      name: "Courier",
      dependencies: [
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
      ],
      resources: [.copy("Cookies/Resources/public_suffix_list.dat"), .process("Resources")],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "CourierStyles",
      dependencies: [
        "Courier",
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "CourierAsyncHTTPClient",
      dependencies: [
        "Courier",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "CourierTesting",
      dependencies: [
        "Courier",
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        // The conformance suite's TLS servers, with certificates made at test time.
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "CourierObservability",
      dependencies: [
        "Courier",
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Instrumentation", package: "swift-distributed-tracing"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "OTelSemanticConventions", package: "swift-otel-semantic-conventions"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "CourierOpenAPI",
      dependencies: [
        "Courier",
        .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      swiftSettings: swiftSettings
    ),
    // The demo API's client, generated from its OpenAPI document by Scripts/generate-openapi.sh.
    .target(
      name: "CourierDemoClient",
      dependencies: [
        .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      exclude: ["openapi.json", "openapi-generator-config.yaml"]
    ),
    .target(
      name: "CourierSQLiteCache",
      dependencies: [
        "Courier",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "CourierOutbox",
      dependencies: [
        "Courier",
        .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLiteOutbox"])),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),
    // The outbox's store on PostgreSQL, for server fleets: several workers, each item applied once.
    .target(
      name: "CourierOutboxPostgres",
      dependencies: [
        "Courier",
        "CourierOutbox",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "CourierCombine",
      dependencies: [
        "Courier",
        .product(
          name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .android, .windows])),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "CourierDemoServer",
      dependencies: [
        // Hummingbird 2.28's code for its default ConfigurationSupport trait has no watchOS availability: on watchOS
        // the demo server is an empty module with no dependencies, and the library products build at the floor.
        .product(name: "Hummingbird", package: "hummingbird", condition: .when(platforms: hummingbirdPlatforms)),
        .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(platforms: hummingbirdPlatforms)),
        .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(platforms: hummingbirdPlatforms)),
        .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: hummingbirdPlatforms)),
        .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(platforms: hummingbirdPlatforms)),
        .product(name: "Logging", package: "swift-log", condition: .when(platforms: hummingbirdPlatforms)),
        .product(name: "MultipartKit", package: "multipart-kit", condition: .when(platforms: hummingbirdPlatforms)),
        .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: hummingbirdPlatforms)),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(platforms: hummingbirdPlatforms)),
        .product(
          name: "ServiceLifecycle", package: "swift-service-lifecycle",
          condition: .when(platforms: hummingbirdPlatforms)),
        .product(
          name: "UnixSignals", package: "swift-service-lifecycle", condition: .when(platforms: hummingbirdPlatforms)),
      ],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "courier-demo",
      dependencies: [
        "Courier",
        "CourierCombine",
        "CourierObservability",
        "CourierStyles",
        "CourierAsyncHTTPClient",
        "CourierDemoServer",
        "CourierOpenAPI",
        "CourierOutbox",
        "CourierOutboxPostgres",
        "CourierTesting",
        "CourierDemoClient",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(
          name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .android, .windows])),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
        .product(name: "MetricsTestKit", package: "swift-metrics"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "CourierTestSupport",
      dependencies: [
        "Courier",
        "CourierAsyncHTTPClient",
        "CourierDemoServer",
        "CourierTesting",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      path: "Tests/CourierTestSupport",
      swiftSettings: swiftSettings
    ),
    // One test target per library; helpers shared between them live in CourierTestSupport only.
    .testTarget(
      name: "CourierTests",
      dependencies: [
        "Courier", "CourierAsyncHTTPClient", "CourierTesting", "CourierDemoServer", "CourierTestSupport",
        "CourierSQLiteCache",
        // ImportedTogetherTests: Courier's names beside those of the packages users import with it.
        "CourierStyles", "CourierObservability", "CourierOpenAPI",
        .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "CourierStylesTests",
      dependencies: ["Courier", "CourierStyles", "CourierTesting", "CourierTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "CourierAsyncHTTPClientTests",
      dependencies: [
        "Courier", "CourierAsyncHTTPClient", "CourierTesting", "CourierTestSupport",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "CourierObservabilityTests",
      dependencies: [
        "Courier", "CourierObservability", "CourierTesting", "CourierTestSupport",
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "MetricsTestKit", package: "swift-metrics"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "CourierOpenAPITests",
      dependencies: [
        "Courier", "CourierOpenAPI", "CourierDemoClient", "CourierDemoServer", "CourierTestSupport",
        .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
      ],
      swiftSettings: swiftSettings
    ),
    // The articles' code samples, compiled by `swift build` (never run); DocumentationSampleTests keeps them equal.
    .target(
      name: "DocumentationSamples",
      dependencies: [
        "Courier", "CourierStyles", "CourierTesting", "CourierObservability", "CourierOpenAPI", "CourierDemoClient",
        "CourierAsyncHTTPClient", "CourierOutbox", "CourierOutboxPostgres",
        .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      path: "Tests/DocumentationSamples",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "CourierCacheWriter",
      dependencies: ["Courier", "CourierSQLiteCache"],
      path: "Tests/CourierCacheWriter",
      swiftSettings: swiftSettings
    ),
    // libFuzzer targets for the parsers and encoders (Fuzz/run.sh builds it with -sanitize=fuzzer,address; a normal
    // build makes a replayer of crash inputs).
    .executableTarget(
      name: "CourierFuzz",
      dependencies: ["Courier", "CourierStyles", .product(name: "HTTPTypes", package: "swift-http-types")],
      path: "Fuzz/CourierFuzz",
      swiftSettings: swiftSettings
    ),
    // A reverse proxy with Courier's cache in front of http-tests/cache-tests' origin (Scripts/cache-tests/run.sh).
    .executableTarget(
      name: "CacheTestsProxy",
      dependencies: [
        "Courier", "CourierAsyncHTTPClient", "CourierSQLiteCache",
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      path: "Scripts/cache-tests/CacheTestsProxy",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "CourierSQLiteCacheTests",
      dependencies: [
        "Courier", "CourierSQLiteCache", "CourierCacheWriter", "CourierTestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "CourierCombineTests",
      dependencies: ["Courier", "CourierCombine", "CourierStyles", "CourierTestSupport"],
      swiftSettings: swiftSettings
    ),
    // Every library beside Combine (OpenCombine) and Swift Testing: no name of ours clashes with theirs.
    .testTarget(
      name: "NameClashTests",
      dependencies: [
        "Courier", "CourierAsyncHTTPClient", "CourierCombine", "CourierObservability", "CourierOpenAPI",
        "CourierOutbox", "CourierSQLiteCache", "CourierStyles", "CourierTesting",
        .product(
          name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .android, .windows])),
      ],
      swiftSettings: swiftSettings
    ),
    // Enqueues and drains until it is killed, for the outbox's crash test.
    .executableTarget(
      name: "CourierOutboxCrashWorker",
      dependencies: ["Courier", "CourierOutbox"],
      path: "Tests/CourierOutboxCrashWorker",
      swiftSettings: swiftSettings
    ),
    // The cases every outbox store passes, run on the SQLite store by CourierOutboxTests and on the PostgreSQL store
    // by CourierOutboxPostgresTests.
    .target(
      name: "CourierOutboxConformance",
      dependencies: [
        "Courier", "CourierOutbox", "CourierTesting", "CourierTestSupport",
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      path: "Tests/CourierOutboxConformance",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "CourierOutboxTests",
      dependencies: [
        "Courier", "CourierOutbox", "CourierTesting", "CourierTestSupport", "CourierOutboxCrashWorker",
        "CourierOutboxConformance",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
      ],
      swiftSettings: swiftSettings
    ),
    // A delivery worker of a fleet sharing one PostgreSQL outbox, for CourierOutboxPostgresTests' process tests.
    .executableTarget(
      name: "CourierOutboxPostgresWorker",
      dependencies: [
        "Courier", "CourierOutbox", "CourierOutboxPostgres", "CourierAsyncHTTPClient",
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ],
      path: "Tests/CourierOutboxPostgresWorker",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "CourierOutboxPostgresTests",
      dependencies: [
        "Courier", "CourierOutbox", "CourierOutboxPostgres", "CourierTesting", "CourierTestSupport",
        "CourierAsyncHTTPClient", "CourierOutboxPostgresWorker",
        "CourierOutboxConformance",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "CourierTestingTests",
      dependencies: ["Courier", "CourierTesting", "CourierTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "CourierDemoServerTests",
      dependencies: [
        "Courier", "CourierDemoServer",
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
