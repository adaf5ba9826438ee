import Courier
import Foundation

/// Where an ``EnvironmentSwitcher`` keeps the environment chosen at run time, so the choice survives a relaunch.
///
/// Courier has ``InMemoryEnvironmentStore`` and, on Apple platforms, `UserDefaultsEnvironmentStore`. Write your
/// own to keep it elsewhere:
///
/// ```swift
/// struct FileEnvironmentStore: EnvironmentStore {
///   let url: URL
///   func load() -> APIEnvironment? { try? JSONDecoder().decode(APIEnvironment.self, from: Data(contentsOf: url)) }
///   func save(_ environment: APIEnvironment?) { try? JSONEncoder().encode(environment).write(to: url) }
/// }
/// ```
public protocol EnvironmentStore: Sendable {
  /// The saved environment, or `nil` when none was saved.
  func load() -> APIEnvironment?
  /// Saves `environment`, or forgets the saved one when `nil`.
  func save(_ environment: APIEnvironment?)
}

/// Keeps the chosen environment for the life of the process.
public final class InMemoryEnvironmentStore: EnvironmentStore {
  private let saved: Locked<APIEnvironment?>

  /// Creates a store, optionally holding `environment`.
  public init(_ environment: APIEnvironment? = nil) {
    saved = Locked(environment)
  }

  /// The saved environment.
  public func load() -> APIEnvironment? {
    saved.withLock { $0 }
  }

  /// Replaces the saved environment.
  public func save(_ environment: APIEnvironment?) {
    saved.withLock { $0 = environment }
  }
}
