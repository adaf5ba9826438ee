import Courier
import Foundation

/// Holds the environment an app talks to, chosen at launch and switchable at run time.
///
/// At launch, the first of these wins:
/// 1. the launch argument `-courier-env <name>` or the variable `COURIER_ENV` (see ``EnvironmentLaunchOptions``);
/// 2. the environment saved in the ``EnvironmentStore`` by an earlier `select(_:)`;
/// 3. the default: `development` in DEBUG builds, `production` otherwise (``APIEnvironment/Name/buildDefault``).
///
/// A client made with ``Courier/APIClient/init(environment:_:)`` reads ``current`` for every request, so a switch from
/// a debug menu takes effect with the next request, without making a new client.
///
/// ```swift
/// let environments = EnvironmentSwitcher(
///   [.development(devURL), .staging(stagingURL), .production(productionURL)],
///   store: UserDefaultsEnvironmentStore())
/// let client = APIClient(environment: environments)
///
/// environments.select(.staging)  // from the debug menu; remembered across launches
/// for await environment in environments.changes() { banner.text = environment.name.rawValue }
/// ```
public final class EnvironmentSwitcher: Sendable {
  /// The environments to choose from.
  public let environments: [APIEnvironment]
  /// Where run-time choices are saved, if anywhere.
  public let store: (any EnvironmentStore)?
  private let selected: Locked<APIEnvironment>
  private let observers = Locked<[UUID: AsyncStream<APIEnvironment>.Continuation]>([:])

  /// Creates a switcher and chooses the launch environment.
  ///
  /// - Parameters:
  ///   - environments: The environments to choose from; must not be empty.
  ///   - defaultName: The environment used when nothing else chooses one; the first environment when no
  ///     environment has this name.
  ///   - store: Where run-time choices are saved; none by default.
  ///   - launchOptions: The process's launch arguments and variables.
  public init(
    _ environments: [APIEnvironment],
    default defaultName: APIEnvironment.Name = .buildDefault,
    store: (any EnvironmentStore)? = nil,
    launchOptions: EnvironmentLaunchOptions = .current
  ) {
    precondition(!environments.isEmpty, "An EnvironmentSwitcher needs at least one environment")
    self.environments = environments
    self.store = store
    let initial =
      launchOptions.requestedEnvironment(among: environments)
      ?? store?.load()
      ?? environments.first { $0.name == defaultName }
      ?? environments[0]
    selected = Locked(initial)
  }

  /// The environment requests go to now.
  public var current: APIEnvironment {
    selected.withLock { $0 }
  }

  /// Switches to `environment` (one of ``environments`` or a custom one), saves the choice in the ``store`` and
  /// tells every ``changes()`` stream.
  public func select(_ environment: APIEnvironment) {
    selected.withLock { $0 = environment }
    store?.save(environment)
    for observer in observers.withLock({ Array($0.values) }) { observer.yield(environment) }
  }

  /// Switches to the environment named `name`; returns `false`, changing nothing, when there is none.
  @discardableResult
  public func select(_ name: APIEnvironment.Name) -> Bool {
    guard let environment = environments.first(where: { $0.name == name }) else { return false }
    select(environment)
    return true
  }

  /// Forgets the saved choice; the current environment stays until the next launch or the next switch.
  public func forgetSelection() {
    store?.save(nil)
  }

  /// The current environment, then every switch, until the stream's consumer stops.
  public func changes() -> AsyncStream<APIEnvironment> {
    let id = UUID()
    let (stream, continuation) = AsyncStream.makeStream(of: APIEnvironment.self, bufferingPolicy: .bufferingNewest(1))
    continuation.onTermination = { [weak self] _ in
      self?.observers.withLock { _ = $0.removeValue(forKey: id) }
    }
    observers.withLock { $0[id] = continuation }
    continuation.yield(current)
    return stream
  }
}

extension APIClient {
  /// Creates a client whose base URL is `environment`'s current one, read for every request.
  ///
  /// ```swift
  /// let client = APIClient(environment: environments) { $0.timeout = 20 }
  /// environments.select(.staging)  // the next request goes to staging
  /// ```
  public convenience init(environment: EnvironmentSwitcher, _ configure: (inout Configuration) -> Void = { _ in }) {
    var configuration = Configuration(baseURL: environment.current.baseURL)
    configuration.baseURLProvider = { environment.current.baseURL }
    configure(&configuration)
    self.init(configuration: configuration)
  }
}
