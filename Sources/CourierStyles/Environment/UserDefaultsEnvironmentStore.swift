import Courier

#if canImport(Darwin)
import Foundation

/// Keeps the chosen environment in `UserDefaults` (Apple platforms), as JSON under one key.
///
/// ```swift
/// let environments = EnvironmentSwitcher(all, store: UserDefaultsEnvironmentStore())
/// ```
public struct UserDefaultsEnvironmentStore: EnvironmentStore {
  /// The key the environment is saved under.
  public let key: String
  /// The defaults suite, or `nil` for the standard defaults.
  public let suiteName: String?

  /// Creates a store for `key` in the standard defaults or in the suite `suiteName`.
  public init(key: String = "courier.environment", suiteName: String? = nil) {
    self.key = key
    self.suiteName = suiteName
  }

  private var defaults: UserDefaults {
    suiteName.flatMap(UserDefaults.init(suiteName:)) ?? .standard
  }

  /// The saved environment, or `nil`.
  public func load() -> APIEnvironment? {
    guard let data = defaults.data(forKey: key) else { return nil }
    return try? JSONDecoder().decode(APIEnvironment.self, from: data)
  }

  /// Saves `environment`, or removes the saved one when `nil`.
  public func save(_ environment: APIEnvironment?) {
    guard let environment, let data = try? JSONEncoder().encode(environment) else {
      defaults.removeObject(forKey: key)
      return
    }
    defaults.set(data, forKey: key)
  }
}
#endif
