import Courier

extension CallbackRequest where Delivery == MainActorDelivery {
  /// Runs `handler` once the request has gone out; see ``CallbackRequest`` for exactly when.
  public func onRequestStarted(_ handler: @escaping @MainActor @Sendable () -> Void) -> CallbackRequest {
    adding { $0.started = delivery.wrap { (_: Void) in handler() } }
  }

  /// Runs `handler` with the fraction done, from 0 to 1.
  public func onProgress(_ handler: @escaping @MainActor @Sendable (Double) -> Void) -> CallbackRequest {
    adding { $0.progress = delivery.wrap(handler) }
  }

  /// Runs `handler` with the decoded value when the call succeeds.
  public func onSuccess(_ handler: @escaping @MainActor @Sendable (Value) -> Void) -> CallbackRequest {
    adding { $0.success = delivery.wrap(handler) }
  }

  /// Runs `handler` when the call fails and no handler specific to the failure is set.
  public func onError(_ handler: @escaping @MainActor @Sendable (CourierError) -> Void) -> CallbackRequest {
    adding { $0.error = delivery.wrap(handler) }
  }

  /// Runs `handler`, instead of `onError`, when the credentials were rejected (401, or a refresh that failed).
  public func onNotAuthorized(_ handler: @escaping @MainActor @Sendable (CourierError) -> Void) -> CallbackRequest {
    adding { $0.notAuthorized = delivery.wrap(handler) }
  }

  /// Runs `handler`, instead of `onError`, when the host could not be reached (offline, DNS, refused).
  public func onNetworkUnavailable(
    _ handler: @escaping @MainActor @Sendable (CourierError) -> Void
  )
    -> CallbackRequest
  {
    adding { $0.networkUnavailable = delivery.wrap(handler) }
  }

  /// Runs `handler`, instead of `onError`, when the call timed out.
  public func onTimeout(_ handler: @escaping @MainActor @Sendable (CourierError) -> Void) -> CallbackRequest {
    adding { $0.timeout = delivery.wrap(handler) }
  }

  /// Runs `handler`, instead of `onError`, when the call was cancelled.
  public func onCancellation(_ handler: @escaping @MainActor @Sendable (CourierError) -> Void) -> CallbackRequest {
    adding { $0.cancellation = delivery.wrap(handler) }
  }
}
