// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so the main build stays fast. Run them with `Benchmarks/run.sh`.
let package = Package(
  name: "CourierBenchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "Courier", path: ".."),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
  ],
  targets: [
    .executableTarget(
      name: "CourierBench",
      dependencies: [
        .product(name: "Courier", package: "Courier"),
        .product(name: "CourierAsyncHTTPClient", package: "Courier"),
        .product(name: "CourierSQLiteCache", package: "Courier"),
        .product(name: "CourierOutbox", package: "Courier"),
        .product(name: "CourierOutboxPostgres", package: "Courier"),
        .product(name: "CourierTesting", package: "Courier"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOFoundationCompat", package: "swift-nio"),
      ],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    )
  ],
  swiftLanguageModes: [.v6]
)
