#if canImport(FoundationNetworking)
import Dispatch
import Foundation

/// The queue a ``URLSessionTransport``'s session calls its delegate on, on Linux.
///
/// FoundationNetworking hands each delegate callback to the session's delegate queue as a block. An
/// `OperationQueue` wraps every block in an `Operation` that it schedules, observes and finishes, which costs more
/// than the callback itself, three times a request (head, body, completion). This queue runs the blocks in the
/// order they were added on one serial dispatch queue instead, which is all a session needs of it. Operations added
/// as `Operation`s keep `OperationQueue`'s own handling (FoundationNetworking adds none).
final class DelegateQueue: OperationQueue, @unchecked Sendable {  // as OperationQueue is: its state is its own.
  private let queue = DispatchQueue(label: "Courier.URLSessionTransport.delegate")

  override init() {
    super.init()
    maxConcurrentOperationCount = 1
  }

  override func addOperation(_ block: @escaping @Sendable () -> Void) {
    queue.async(execute: block)
  }
}
#endif
