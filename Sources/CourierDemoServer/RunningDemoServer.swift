#if canImport(Hummingbird)
import Foundation
import ServiceLifecycle

/// A demo server started by ``DemoServer/start(host:port:)``.
///
/// Keep a reference for as long as the server should run and call ``stop()`` when done; the server keeps
/// running in its background task until then.
@available(macOS 14, iOS 17, tvOS 17, *)
public final class RunningDemoServer: Sendable {
  /// The host the server was bound to.
  public let host: String
  /// The port the server is listening on (the real port when started with port 0).
  public let port: Int

  /// Whether the server speaks TLS (started with ``DemoServer/TLS``).
  public let isTLS: Bool

  /// The base URL of the server, e.g. `http://127.0.0.1:8080` (`https://…` when ``isTLS``).
  public var baseURL: URL {
    URL(string: "\(isTLS ? "https" : "http")://\(Self.urlHost(for: host)):\(port)")!
  }

  /// How long ``stop()`` waits for a graceful shutdown before cancelling the server outright.
  static let gracePeriod: Duration = .seconds(5)

  private let serviceGroup: ServiceGroup
  private let task: Task<Void, any Error>

  init(host: String, port: Int, isTLS: Bool = false, serviceGroup: ServiceGroup, task: Task<Void, any Error>) {
    self.host = host
    self.port = port
    self.isTLS = isTLS
    self.serviceGroup = serviceGroup
    self.task = task
  }

  /// Stops the server gracefully and waits until it has finished; calling it again does nothing.
  ///
  /// The listening socket closes at once, idle connections are closed and in-flight requests may finish
  /// (`/slow` stops waiting). If that takes longer than a few seconds the server task is cancelled.
  public func stop() async {
    await serviceGroup.triggerGracefulShutdown()
    let task = self.task
    // Unstructured on purpose: the deadline must hold even when the caller of stop() is cancelled.
    let deadline = Task {
      do {
        try await Task.sleep(for: Self.gracePeriod)
      } catch {
        return
      }
      task.cancel()
    }
    _ = await task.result
    deadline.cancel()
    _ = await deadline.result
  }

  /// Waits until the server task ends, rethrowing the error it ended with.
  func waitUntilFinished() async throws {
    try await task.value
  }

  /// The host as written in a URL: wildcard addresses become loopback and IPv6 gets brackets.
  static func urlHost(for host: String) -> String {
    switch host {
    case "0.0.0.0", "": return "127.0.0.1"
    case "::": return "[::1]"
    default: return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
  }
}
#endif
