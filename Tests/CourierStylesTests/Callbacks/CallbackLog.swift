import CourierStyles
import CourierTestSupport
import Foundation

@testable import Courier

/// What a call's callbacks reported, in order.
final class CallbackLog: Sendable {
  private let storage = Locked<[String]>([])

  var events: [String] { storage.withLock { $0 } }

  func record(_ event: String) {
    storage.withLock { $0.append(event) }
  }

  func contains(_ event: String) -> Bool { events.contains(event) }

  /// Blocks the calling thread until `event` is recorded, or until the calling task is cancelled (the test's time
  /// limit cancels it: a thread blocked here cannot be stopped otherwise); returns whether it was recorded.
  func blockUntil(_ event: String) -> Bool {
    while !contains(event) {
      guard !Task.isCancelled else { return false }
      Thread.sleep(forTimeInterval: 0.005)
    }
    return true
  }
}

extension CallbackRequest where Delivery == MainActorDelivery {
  /// Records every callback in `log`: `started`, `progress 0.0`, `success`, `error 500`, `timeout`, ...
  func logging(to log: CallbackLog) -> CallbackRequest {
    onRequestStarted { log.record("started") }
      .onProgress { log.record("progress \($0)") }
      .onSuccess { _ in log.record("success") }
      .onError { log.record("error \($0.status?.code ?? 0)") }
      .onNotAuthorized { log.record("notAuthorized \($0.status?.code ?? 0)") }
      .onNetworkUnavailable { _ in log.record("networkUnavailable") }
      .onTimeout { _ in log.record("timeout") }
      .onCancellation { _ in log.record("cancellation") }
  }
}
