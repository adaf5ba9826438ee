import Courier
import Foundation

/// Sends the calls of an `EndpointConvertible` API (an enum with a case per call) and can cancel them: one by
/// its ``CallHandle``, or all at once.
///
/// ```swift
/// let router = TargetRouter<BlogAPI>(client: APIClient(environment: environments))
/// let posts = try await router.request(.posts(page: 1), as: [Post].self)
///
/// let call = router.request(.create(draft), as: Post.self) { result in  // on the main actor
///   switch result {
///   case .success(let post): show(post)
///   case .failure(let error): alert(error.userMessage)
///   }
/// }
/// call.cancel()   // or router.cancelAll() when the screen goes away
/// ```
///
/// A cancelled call fails with a `CourierError` whose `CourierError.isCancellation` is true. Cancelling the
/// task that awaits a call cancels it too.
public final class TargetRouter<API: EndpointConvertible>: Sendable {
  /// The client calls go through; its base URL (or environment) is used unless the API names one.
  public let client: APIClient
  private let inFlight = TaskRegistry<UUID>()

  /// Creates a router sending through `client`.
  public init(client: APIClient) {
    self.client = client
  }

  /// Sends `target` and returns the whole response. Cancel it by cancelling the calling task, or with
  /// ``cancelAll()``.
  @discardableResult
  public func send<Value: Decodable & Sendable>(
    _ target: API,
    as type: Value.Type = Value.self
  ) async throws -> APIResponse<Value> {
    try await send(target.endpoint(as: type), key: UUID())
  }

  /// Sends `target` and returns the decoded value.
  @discardableResult
  public func request<Value: Decodable & Sendable>(
    _ target: API,
    as type: Value.Type = Value.self
  ) async throws -> Value {
    try await send(target, as: type).value
  }

  /// Starts `target` and hands its result to `completion` on the main actor; returns the handle that cancels it.
  @discardableResult
  public func request<Value: Decodable & Sendable>(
    _ target: API,
    as type: Value.Type = Value.self,
    completion: @escaping @MainActor @Sendable (Result<Value, CourierError>) -> Void
  ) -> CallHandle {
    let call = start(target.endpoint(as: type), key: UUID())
    let task = Task {
      let result = await withTaskCancellationHandler {
        await call.value
      } onCancel: {
        call.cancel()
      }
      await completion(result.map(\.value))
    }
    return CallHandle(task: task)
  }

  /// Cancels the call `handle` names, if it is still running.
  public func cancel(_ handle: CallHandle) {
    handle.cancel()
  }

  /// Cancels every call in flight.
  public func cancelAll() {
    inFlight.cancel()
  }

  /// How many calls are in flight.
  public var inFlightCount: Int {
    inFlight.count
  }

  /// Sends `endpoint` in a task registered under `key`, so that ``cancelAll()`` reaches it; cancelling the calling
  /// task cancels it too.
  func send<Value>(_ endpoint: Endpoint<Value>, key: UUID) async throws -> APIResponse<Value> {
    let call = start(endpoint, key: key)
    return try await withTaskCancellationHandler {
      await call.value
    } onCancel: {
      call.cancel()
    }.get()
  }

  /// Starts sending `endpoint` in a task registered under `key`; it leaves the registry before its result is seen.
  private func start<Value>(
    _ endpoint: Endpoint<Value>,
    key: UUID
  ) -> Task<Result<APIResponse<Value>, CourierError>, Never> {
    let client = client
    return inFlight.start(under: key) {
      do {
        return .success(try await client.send(endpoint))
      } catch {
        return .failure(Self.courierError(error))
      }
    }
  }

  private static func courierError(_ error: any Error) -> CourierError {
    error as? CourierError ?? CourierError(.cancelled, "The request was cancelled", underlyingError: error)
  }
}
