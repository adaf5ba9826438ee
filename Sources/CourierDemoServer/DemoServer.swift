import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

/// A small, deterministic REST API used by Courier's demo tour and end-to-end tests.
///
/// The server is a plain Hummingbird application and does not depend on Courier itself. Every server
/// started from a `DemoServer` gets its own freshly seeded state, so tests never share users, tokens or
/// counters with each other.
///
/// ```swift
/// let server = try await DemoServer().start()
/// defer { Task { await server.stop() } }
/// print(server.baseURL) // http://127.0.0.1:<port>
/// ```
public struct DemoServer: Sendable {
  /// Tunable behaviour of the demo server.
  public struct Options: Sendable {
    /// How long an access token issued by `/auth/login` or `/auth/refresh` stays valid.
    public var accessTokenTTL: Duration = .seconds(3600)

    /// Creates options.
    /// - Parameter accessTokenTTL: Lifetime of issued access tokens (default one hour).
    public init(accessTokenTTL: Duration = .seconds(3600)) {
      self.accessTokenTTL = accessTokenTTL
    }
  }

  /// The options every server started from this value uses.
  public let options: Options
  /// The logger handed to Hummingbird.
  public let logger: Logger

  /// Creates a demo server description; nothing is started until ``start(host:port:)`` or ``run(host:port:)``.
  /// - Parameters:
  ///   - options: Behaviour options such as the access-token lifetime.
  ///   - logger: Logger used by the server.
  public init(options: Options = .init(), logger: Logger = Logger(label: "courier.demo-server")) {
    self.options = options
    self.logger = logger
  }

  /// Starts on host:port (port 0 = a free port) and returns once it is listening.
  ///
  /// The server runs in a background task until ``RunningDemoServer/stop()`` is called. If the server
  /// cannot bind (for example the port is taken) the error is thrown from here.
  /// - Parameters:
  ///   - host: Address to bind, `127.0.0.1` by default.
  ///   - port: Port to bind; `0` picks a free port, readable afterwards from ``RunningDemoServer/port``.
  /// - Returns: A handle to the running server.
  public func start(host: String = "127.0.0.1", port: Int = 0) async throws -> RunningDemoServer {
    try await launch(host: host, port: port, gracefulShutdownSignals: [])
  }

  /// Runs in the foreground until the task is cancelled or SIGINT/SIGTERM (for `courier-demo serve --port N`).
  ///
  /// Both cancellation and the signals shut the server down gracefully: the listening socket closes, idle
  /// connections close and in-flight requests finish (`/slow` stops waiting).
  /// - Parameters:
  ///   - host: Address to bind, `127.0.0.1` by default.
  ///   - port: Port to bind.
  public func run(host: String = "127.0.0.1", port: Int) async throws {
    let server = try await launch(host: host, port: port, gracefulShutdownSignals: [.sigterm, .sigint])
    logger.info("Courier demo server listening on \(server.baseURL.absoluteString)")
    // Wait until the server ends by itself (a signal) or this task is cancelled; iterating an
    // AsyncStream ends on cancellation, whereas awaiting the server task would not.
    let (finished, continuation) = AsyncStream.makeStream(of: Never.self)
    let watcher = Task {
      try? await server.waitUntilFinished()
      continuation.finish()
    }
    for await _ in finished {}
    await server.stop()
    await watcher.value
    try await server.waitUntilFinished()
  }

  /// Starts the server in a background task and waits until it listens.
  func launch(
    host: String,
    port: Int,
    gracefulShutdownSignals: [UnixSignal]
  ) async throws -> RunningDemoServer {
    let (events, continuation) = AsyncStream.makeStream(of: StartupEvent.self)
    let app = makeApplication(host: host, port: port) { boundPort in
      continuation.yield(.listening(port: boundPort ?? port))
    }
    let serviceGroup = ServiceGroup(
      configuration: .init(services: [app], gracefulShutdownSignals: gracefulShutdownSignals, logger: logger)
    )
    let task = Task {
      defer { continuation.finish() }
      do {
        try await serviceGroup.run()
      } catch {
        continuation.yield(.failed(error))
        throw error
      }
    }
    for await event in events {
      switch event {
      case .listening(let boundPort):
        return RunningDemoServer(host: host, port: boundPort, serviceGroup: serviceGroup, task: task)
      case .failed(let error):
        _ = await task.result
        throw error
      }
    }
    // The stream ended without the server listening: it stopped by itself, or the caller was cancelled.
    await RunningDemoServer(host: host, port: port, serviceGroup: serviceGroup, task: task).stop()
    try await task.value
    throw Task.isCancelled ? CancellationError() : DemoServerError.stoppedBeforeListening
  }

  /// Builds the Hummingbird application with freshly seeded state.
  ///
  /// Exposed to the tests (`@testable import`) so they can drive the router in memory.
  /// - Parameters:
  ///   - host: Address to bind.
  ///   - port: Port to bind.
  ///   - onListening: Called once the server socket is bound, with the bound port when known.
  func makeApplication(
    host: String = "127.0.0.1",
    port: Int = 0,
    onListening: @escaping @Sendable (Int?) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let state = DemoState(accessTokenTTL: options.accessTokenTTL)
    return Application(
      responder: DemoRouter.makeResponder(state: state),
      server: .http1(configuration: .init(additionalChannelHandlers: [DateOverride.Handler()])),
      configuration: .init(address: .hostname(host, port: port), serverName: "CourierDemoServer"),
      onServerRunning: { channel in
        await onListening(channel.localAddress?.port)
      },
      logger: logger
    )
  }
}

/// What the background task reports while ``DemoServer/start(host:port:)`` waits for it.
private enum StartupEvent: Sendable {
  case listening(port: Int)
  case failed(any Error)
}
