import Courier

/// A call with callbacks, for code written before async/await: set the handlers you need, then ``execute()``.
///
/// ```swift
/// client.call(API.auth.login(email: email, password: password))
///   .onRequestStarted { self.spinner.startAnimating() }
///   .onSuccess { tokens in self.session.start(with: tokens) }
///   .onNotAuthorized { _ in self.showError("Wrong email or password") }
///   .onNetworkUnavailable { _ in self.showOfflineBanner() }
///   .onError { error in self.showError(error.userMessage) }
///   .execute()
/// ```
///
/// **Which failure handler runs.** A failure runs exactly one handler: the specific one for its kind when you
/// set it, else `onError(_:)`. In order: `CourierError.isCancellation` → `onCancellation`,
/// `CourierError.isTimeout` → `onTimeout`, `CourierError.isNoConnection` → `onNetworkUnavailable`,
/// `CourierError.isUnauthorized` (401, or credentials that could not be refreshed) → `onNotAuthorized`.
///
/// **When `onRequestStarted` runs.** Once, when the request has gone out on a connection, as the transport reports
/// it (AsyncHTTPClient: the request head was written; URLSession: its body started to go out, or, for a request
/// without a body, which URLSession says nothing about, 0.1 s with the session without failing), or when its response
/// began. It does not run
/// when the call never reached a server: the request could not be built (`invalidURL`, `encoding`), it was
/// cancelled first, an interceptor answered or failed it (a cache hit, a connectivity check that finds the device
/// offline), or the transport could not connect (refused, unknown host, no network), which is reported at once.
/// Being offline is then reported by `onNetworkUnavailable` alone, and no spinner flashes for nothing.
///
/// **Progress.** `onProgress` reports `0` with `onRequestStarted` and `1` when the response has arrived and
/// decoded, just before `onSuccess`. For byte counts, set `Endpoint.onUploadProgress(_:)` or
/// `Endpoint.onDownloadProgress(_:)` on the endpoint.
///
/// **Order and isolation.** Callbacks run one after another in that order, on the main actor unless you choose
/// another ``CallbackDelivery`` with ``callbacks(on:)``. The call waits for `onRequestStarted` before sending.
public struct CallbackRequest<Value: Decodable & Sendable, Delivery: CallbackDelivery>: Sendable {
  /// The endpoint the call sends.
  public let endpoint: Endpoint<Value>
  /// The client the call goes through.
  public let client: APIClient
  /// Where the callbacks run.
  public let delivery: Delivery

  var handlers: CallbackHandlers<Value>
  let executions: TaskRegistry<Int>

  init(
    endpoint: Endpoint<Value>,
    client: APIClient,
    delivery: Delivery,
    handlers: CallbackHandlers<Value> = CallbackHandlers(),
    executions: TaskRegistry<Int> = TaskRegistry()
  ) {
    self.endpoint = endpoint
    self.client = client
    self.delivery = delivery
    self.handlers = handlers
    self.executions = executions
  }

  /// Runs the callbacks set after this one where `delivery` says; those set before keep their own.
  ///
  /// ```swift
  /// client.call(endpoint).callbacks(on: .nonisolated).onSuccess { value in cache.store(value) }.execute()
  /// ```
  public func callbacks<Other: CallbackDelivery>(on delivery: Other) -> CallbackRequest<Value, Other> {
    CallbackRequest<Value, Other>(
      endpoint: endpoint, client: client, delivery: delivery, handlers: handlers, executions: executions)
  }

  /// Sends the call, with or without a success handler, and returns a handle to cancel or await it.
  ///
  /// ```swift
  /// client.call(APIRequest<EmptyBody>("analytics/open").method(.post)).execute()  // fire and forget
  /// ```
  @discardableResult
  public func execute() -> CallHandle {
    let handlers = handlers
    let client = client
    let endpoint =
      handlers.started == nil && handlers.progress == nil
      ? endpoint
      : endpoint.onTransportStart {
        await handlers.started?(())
        await handlers.progress?(0)
      }
    let task = executions.start(under: 0) {
      do {
        let value = try await client.send(endpoint).value
        await handlers.progress?(1)
        await handlers.success?(value)
      } catch {
        let failure =
          error as? CourierError ?? CourierError(.cancelled, "The call was cancelled", underlyingError: error)
        await handlers.handler(for: failure)?(failure)
      }
    }
    return CallHandle(task: task)
  }

  /// Cancels every call started with ``execute()`` from this request, or from requests derived from it by adding
  /// callbacks, that is still running.
  public func cancel() {
    executions.cancel()
  }

  func adding(_ change: (inout CallbackHandlers<Value>) -> Void) -> CallbackRequest {
    var copy = self
    change(&copy.handlers)
    return copy
  }
}

extension APIClient {
  /// Wraps `endpoint` in a ``CallbackRequest``, for callback-style code.
  ///
  /// ```swift
  /// client.call(Endpoint<User>.get("/users/me")).onSuccess { user in self.nameLabel.text = user.name }.execute()
  /// ```
  public func call<Value>(_ endpoint: Endpoint<Value>) -> CallbackRequest<Value, MainActorDelivery> {
    CallbackRequest(endpoint: endpoint, client: self, delivery: .mainActor)
  }

  /// Wraps a value of an `EndpointConvertible` API in a ``CallbackRequest`` that decodes `type`.
  public func call<Value: Decodable & Sendable>(
    _ target: some EndpointConvertible,
    as type: Value.Type = Value.self
  ) -> CallbackRequest<Value, MainActorDelivery> {
    call(target.endpoint(as: type))
  }
}
