import Courier

/// How far a ``Courier/APIClient/sendAll(_:maxConcurrent:continueOnError:progress:)`` batch has come.
///
/// The batch reports once before the first call (nothing completed) and once after each call finishes,
/// successfully or not, so `completed` rises by one each time and ends at `total`, unless a failure stops the batch
/// early.
///
/// ```swift
/// let results = try await client.sendAll(uploads, maxConcurrent: 3, continueOnError: true) { progress in
///   print("\(progress.completed)/\(progress.total), \(progress.failed) failed")
/// }
/// ```
public struct BatchProgress: Sendable, Hashable, CustomStringConvertible {
  /// Calls finished so far, successfully or not.
  public var completed: Int
  /// Calls that finished with an error so far; included in ``completed``.
  public var failed: Int
  /// Calls in the batch.
  public var total: Int

  /// Creates a progress value; batches make these for you.
  public init(completed: Int, failed: Int, total: Int) {
    self.completed = completed
    self.failed = failed
    self.total = total
  }

  /// `completed / total`, from 0 to 1; 1 for an empty batch.
  public var fractionCompleted: Double {
    total == 0 ? 1 : Double(completed) / Double(total)
  }

  /// Whether every call has finished.
  public var isFinished: Bool { completed == total }

  /// `3/10 (1 failed)`.
  public var description: String {
    failed == 0 ? "\(completed)/\(total)" : "\(completed)/\(total) (\(failed) failed)"
  }
}
