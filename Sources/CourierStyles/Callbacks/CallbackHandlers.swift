import Courier

/// The callbacks a ``CallbackRequest`` holds, already wrapped to run where its delivery says.
struct CallbackHandlers<Value: Sendable>: Sendable {
  typealias Handler<T> = @Sendable (T) async -> Void

  var started: Handler<Void>?
  var progress: Handler<Double>?
  var success: Handler<Value>?
  var error: Handler<CourierError>?
  var notAuthorized: Handler<CourierError>?
  var networkUnavailable: Handler<CourierError>?
  var timeout: Handler<CourierError>?
  var cancellation: Handler<CourierError>?

  /// The handler for `failure`: the specific one for its kind when set, else `onError`'s.
  func handler(for failure: CourierError) -> Handler<CourierError>? {
    let specific: Handler<CourierError>?
    if failure.isCancellation {
      specific = cancellation
    } else if failure.isTimeout {
      specific = timeout
    } else if failure.isNoConnection {
      specific = networkUnavailable
    } else if failure.isUnauthorized {
      specific = notAuthorized
    } else {
      specific = nil
    }
    return specific ?? error
  }
}
