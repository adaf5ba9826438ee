// swift-tools-version: 6.1
// Builds swift-openapi-generator for Scripts/generate-openapi.sh, apart from Courier's own package so that the main
// build never compiles the generator.
import PackageDescription

let package = Package(
  name: "openapi-generator",
  dependencies: [
    .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3")
  ],
  targets: []
)
