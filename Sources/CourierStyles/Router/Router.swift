import Courier
import Foundation

/// Sends the calls of an ``EndpointConvertible`` API (an enum with a case per call) and can cancel them: one by
/// its ``RequestToken``, or all at once.
///
/// ```swift
/// let router = Router<BlogAPI>(client: APIClient(environment: environments))
/// let posts = try await router.request(.posts(page: 1), as: [Post].self)
///
/// let token = router.request(.create(draft), as: Post.self) { result in  // on the main actor
///   switch result {
///   case .success(let post): show(post)
///   case .failure(let error): alert(error.userMessage)
///   }
/// }
/// router.cancel(token)   // or router.cancelAll() when the screen goes away
/// ```
///
/// A cancelled call fails with a ``CourierError`` whose ``CourierError/isCancellation`` is true. Cancelling the
/// task that awaits a call cancels it too.
public final class Router<API: EndpointConvertible>: Sendable {
  /// The client calls go through; its base URL (or environment) is used unless the API names one.
  public let client: APIClient
  private let inFlight = TaskRegistry<RequestToken>()

  /// Creates a router sending through `client`.
  public init(client: APIClient) {
    self.client = client
  }

  /// Sends `target` and returns the whole response.
  ///
  /// - Parameter token: Pass a token you made to cancel this call with ``cancel(_:)`` while it runs.
  @discardableResult
  public func send<Value: Decodable & Sendable>(
    _ target: API,
    as type: Value.Type = Value.self,
    token: RequestToken = RequestToken()
  ) async throws -> Response<Value> {
    let call = start(target.endpoint(as: type), token: token)
    do {
      return try await withTaskCancellationHandler {
        try await call.value
      } onCancel: {
        call.cancel()
      }
    } catch {
      throw Self.courierError(error)
    }
  }

  /// Sends `target` and returns the decoded value.
  @discardableResult
  public func request<Value: Decodable & Sendable>(
    _ target: API,
    as type: Value.Type = Value.self,
    token: RequestToken = RequestToken()
  ) async throws -> Value {
    try await send(target, as: type, token: token).value
  }

  /// Starts `target` and hands its result to `completion` on the main actor; returns the token that cancels it.
  @discardableResult
  public func request<Value: Decodable & Sendable>(
    _ target: API,
    as type: Value.Type = Value.self,
    completion: @escaping @MainActor @Sendable (Result<Value, CourierError>) -> Void
  ) -> RequestToken {
    let token = RequestToken()
    let call = start(target.endpoint(as: type), token: token)
    Task {
      let result = await call.result.map(\.value).mapError(Self.courierError)
      await completion(result)
    }
    return token
  }

  /// Cancels the calls started with `token` that are still in flight.
  public func cancel(_ token: RequestToken) {
    inFlight.cancel { $0 == token }
  }

  /// Cancels every call in flight.
  public func cancelAll() {
    inFlight.cancel()
  }

  /// How many calls are in flight.
  public var inFlightCount: Int {
    inFlight.count
  }

  /// Starts sending `endpoint` in a task that is registered under `token` before it can finish.
  private func start<Value>(_ endpoint: Endpoint<Value>, token: RequestToken) -> Task<Response<Value>, any Error> {
    let client = client
    return inFlight.start(under: token) { try await client.send(endpoint) }
  }

  private static func courierError(_ error: any Error) -> CourierError {
    error as? CourierError ?? CourierError(.cancelled, "The request was cancelled", underlyingError: error)
  }
}
