import Courier
import Foundation

/// Names a call a ``Router`` has in flight, so it can be cancelled alone.
///
/// ```swift
/// let token = router.request(.search("lamp"), as: [Product].self) { result in show(result) }
/// router.cancel(token)  // the user typed another letter
/// ```
public struct RequestToken: Sendable, Hashable {
  let id: UUID

  /// A new token, to pass to ``Router/send(_:as:token:)`` when you need to cancel an `async` call from elsewhere.
  public init() {
    id = UUID()
  }
}
