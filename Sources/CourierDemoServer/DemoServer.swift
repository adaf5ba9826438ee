#if canImport(Hummingbird)
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
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
@available(macOS 14, iOS 17, tvOS 17, *)
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
    try await launch(host: host, port: port, tls: nil, gracefulShutdownSignals: [])
  }

  /// Starts over TLS on host:port (port 0 = a free port), presenting `tls`'s certificate chain, and returns once it
  /// is listening; its ``RunningDemoServer/baseURL`` is `https://…`.
  ///
  /// - Throws: when the certificate chain or the key cannot be read, or the server cannot bind.
  public func start(host: String = "127.0.0.1", port: Int = 0, tls: TLS) async throws -> RunningDemoServer {
    try await launch(host: host, port: port, tls: tls, gracefulShutdownSignals: [])
  }

  /// The certificate chain and private key a server started with ``DemoServer/start(host:port:tls:)`` presents.
  public struct TLS: Sendable {
    /// The server's certificate, then any intermediates, as PEM `CERTIFICATE` blocks.
    public var certificateChainPEM: String
    /// The server certificate's private key, as a PEM block.
    public var privateKeyPEM: String

    /// A chain and its key, both PEM.
    public init(certificateChainPEM: String, privateKeyPEM: String) {
      self.certificateChainPEM = certificateChainPEM
      self.privateKeyPEM = privateKeyPEM
    }

    /// The server side of NIOSSL's configuration.
    func configuration() throws -> TLSConfiguration {
      let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificateChainPEM.utf8))
      let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
      return TLSConfiguration.makeServerConfiguration(
        certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    }
  }

  /// Runs in the foreground until the task is cancelled or SIGINT/SIGTERM (for `courier-demo serve --port N`).
  ///
  /// Both cancellation and the signals shut the server down gracefully: the listening socket closes, idle
  /// connections close and in-flight requests finish (`/slow` stops waiting).
  /// - Parameters:
  ///   - host: Address to bind, `127.0.0.1` by default.
  ///   - port: Port to bind.
  public func run(host: String = "127.0.0.1", port: Int) async throws {
    let server = try await launch(host: host, port: port, tls: nil, gracefulShutdownSignals: [.sigterm, .sigint])
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
    tls: TLS?,
    gracefulShutdownSignals: [UnixSignal]
  ) async throws -> RunningDemoServer {
    let (events, continuation) = AsyncStream.makeStream(of: StartupEvent.self)
    let server = try tls.map { try HTTPServerBuilder.tls(Self.http1, tlsConfiguration: $0.configuration()) }
    let app = makeApplication(host: host, port: port, server: server ?? Self.http1) { boundPort in
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
        return RunningDemoServer(
          host: host, port: boundPort, isTLS: tls != nil, serviceGroup: serviceGroup, task: task)
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

  /// Plain HTTP/1.1, with the handler that lets a request set the response's `Date`.
  static var http1: HTTPServerBuilder {
    .http1(configuration: .init(additionalChannelHandlers: [DateOverride.Handler()]))
  }

  /// Builds the Hummingbird application with freshly seeded state.
  ///
  /// Exposed to the tests (`@testable import`) so they can drive the router in memory.
  /// - Parameters:
  ///   - host: Address to bind.
  ///   - port: Port to bind.
  ///   - server: The server's channel: plain HTTP/1.1 by default, or that wrapped in TLS.
  ///   - onListening: Called once the server socket is bound, with the bound port when known.
  func makeApplication(
    host: String = "127.0.0.1",
    port: Int = 0,
    server: HTTPServerBuilder = http1,
    onListening: @escaping @Sendable (Int?) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let state = DemoState(accessTokenTTL: options.accessTokenTTL)
    return Application(
      responder: DemoRouter.makeResponder(state: state),
      server: server,
      configuration: .init(address: .hostname(host, port: port), serverName: "CourierDemoServer"),
      onServerRunning: { channel in
        await onListening(channel.localAddress?.port)
      },
      logger: logger
    )
  }
}

/// What the background task reports while ``DemoServer/start(host:port:)`` waits for it.
@available(macOS 14, iOS 17, tvOS 17, *)
private enum StartupEvent: Sendable {
  case listening(port: Int)
  case failed(any Error)
}
#endif
