import Foundation

/// A counting semaphore for tasks: waiters are served first in, first out, and a cancelled waiter (a call's deadline
/// cancels its task) leaves the queue at once with `CancellationError`.
actor AsyncSemaphore {
  private var available: Int
  private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
  private var nextID: UInt64 = 0

  init(permits: Int) {
    available = max(permits, 1)
  }

  /// Takes a permit, waiting for one until the task is cancelled.
  func acquire() async throws {
    try Task.checkCancellation()
    if available > 0, waiters.isEmpty {
      available -= 1
      return
    }
    nextID += 1
    let id = nextID
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        waiters.append((id, continuation))
      }
    } onCancel: {
      Task { await self.cancel(id) }
    }
  }

  /// The tasks waiting for a permit (for tests).
  var waiting: Int { waiters.count }

  func release() {
    if waiters.isEmpty {
      available += 1
    } else {
      waiters.removeFirst().continuation.resume()
    }
  }

  private func cancel(_ id: UInt64) {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
    waiters.remove(at: index).continuation.resume(throwing: CancellationError())
  }
}
