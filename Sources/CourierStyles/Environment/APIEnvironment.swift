import Courier
import Foundation

/// A named server an app can talk to, such as development, staging or production, and its base URL.
///
/// ```swift
/// let environments = EnvironmentSwitcher([
///   .development(URL(string: "http://localhost:8080")!),
///   .staging(URL(string: "https://staging.api.example.com")!),
///   .production(URL(string: "https://api.example.com")!),
///   APIEnvironment("qa", baseURL: URL(string: "https://qa.api.example.com")!),
/// ])
/// ```
public struct APIEnvironment: Sendable, Hashable, Codable {
  /// The environment's name.
  public var name: Name
  /// The URL relative endpoint paths are joined to.
  public var baseURL: URL

  /// Creates an environment.
  public init(_ name: Name, baseURL: URL) {
    self.name = name
    self.baseURL = baseURL
  }

  /// The development environment at `baseURL`.
  public static func development(_ baseURL: URL) -> APIEnvironment { APIEnvironment(.development, baseURL: baseURL) }
  /// The staging environment at `baseURL`.
  public static func staging(_ baseURL: URL) -> APIEnvironment { APIEnvironment(.staging, baseURL: baseURL) }
  /// The production environment at `baseURL`.
  public static func production(_ baseURL: URL) -> APIEnvironment { APIEnvironment(.production, baseURL: baseURL) }
}

extension APIEnvironment {
  /// An environment's name: `development`, `staging`, `production`, or any of your own (`"qa"`, `"eu-beta"`).
  ///
  /// Names are compared without regard to case, and the usual short forms mean the standard names:
  /// `dev`/`debug` → `development`, `stage`/`stg` → `staging`, `prod`/`release` → `production`.
  public struct Name: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
  {
    /// The name, lowercased, short forms expanded.
    public let rawValue: String

    /// Creates a name from text such as `"Staging"` or `"prod"`.
    public init(rawValue: String) {
      let name = rawValue.trimmingCharacters(in: .whitespaces).lowercased()
      self.rawValue = Self.aliases[name] ?? name
    }

    /// Creates a name from text.
    public init(_ rawValue: String) {
      self.init(rawValue: rawValue)
    }

    /// Creates a name from a string literal: `"qa"`.
    public init(stringLiteral value: String) {
      self.init(rawValue: value)
    }

    /// Decodes a name from a string.
    public init(from decoder: any Decoder) throws {
      self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the name as a string.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }

    /// The name.
    public var description: String { rawValue }

    /// `development`.
    public static let development = Name("development")
    /// `staging`.
    public static let staging = Name("staging")
    /// `production`.
    public static let production = Name("production")

    /// The default for this build: `development` in DEBUG builds, `production` otherwise.
    public static var buildDefault: Name {
      #if DEBUG
      .development
      #else
      .production
      #endif
    }

    private static let aliases = [
      "dev": "development", "debug": "development", "stage": "staging", "stg": "staging", "prod": "production",
      "release": "production",
    ]
  }
}
