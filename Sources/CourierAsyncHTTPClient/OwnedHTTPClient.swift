import AsyncHTTPClient

/// An `HTTPClient` a transport made for itself: shut down, without blocking, when the last transport holding it is
/// released.
final class OwnedHTTPClient: Sendable {
  let client: HTTPClient

  init(configuration: HTTPClient.Configuration) {
    client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }

  deinit {
    let client = client
    // The callback keeps the client alive until its connections are closed.
    client.shutdown { _ in _ = client }
  }
}
