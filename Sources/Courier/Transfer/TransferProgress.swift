import Foundation

/// How far an upload or a download has got: bytes done and, when known, the total.
///
/// Uploads count the bytes handed to the transport (URLSession reports what it has sent), downloads the bytes read
/// from it. A sequence of progress values starts at zero, never goes back, and ends at the total.
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
  /// Bytes transferred so far.
  public var completedBytes: Int64
  /// The total number of bytes, when the body's length is known.
  public var totalBytes: Int64?

  /// Creates a progress value.
  public init(completedBytes: Int64, totalBytes: Int64?) {
    self.completedBytes = completedBytes
    self.totalBytes = totalBytes
  }

  /// `completedBytes / totalBytes` between 0 and 1, or `nil` when the total is unknown (1 for an empty body).
  public var fraction: Double? {
    guard let totalBytes else { return nil }
    guard totalBytes > 0 else { return 1 }
    return min(1, Double(completedBytes) / Double(totalBytes))
  }

  /// Whether every byte of a known total has been transferred.
  public var isComplete: Bool {
    totalBytes.map { completedBytes >= $0 } ?? false
  }

  /// `"512 of 1024 bytes (50%)"`, or `"512 bytes"` when the total is unknown.
  public var description: String {
    guard let totalBytes, let fraction else { return "\(completedBytes) bytes" }
    return "\(completedBytes) of \(totalBytes) bytes (\(Int((fraction * 100).rounded(.down)))%)"
  }
}

/// Receives byte counts for one direction of a transfer and turns them into monotonic ``TransferProgress`` values
/// for an `AsyncStream` and an optional callback.
///
/// Values are delivered under a lock so they stay in order when several threads report; the callback must return
/// quickly (hop to the main actor for UI work).
final class ProgressReporter: Sendable {
  fileprivate struct State {
    /// The furthest point reported.
    var completed: Int64 = 0
    var total: Int64?
    /// Bytes of the current attempt, counting a resumed download's offset.
    var attemptBytes: Int64 = 0
    var started = false
    var finished = false
  }

  private let state = Locked(State())
  private let continuation: AsyncStream<TransferProgress>.Continuation?
  private let callback: (@Sendable (TransferProgress) -> Void)?
  /// The values, for ``Transfer/uploadProgress`` or ``Transfer/downloadProgress``; `nil` when only a callback
  /// listens.
  let sequence: AsyncStream<TransferProgress>?

  /// A reporter for a callback, a sequence, or both.
  init(sequence wantsSequence: Bool, callback: (@Sendable (TransferProgress) -> Void)?) {
    if wantsSequence {
      let (stream, continuation) = AsyncStream.makeStream(of: TransferProgress.self, bufferingPolicy: .unbounded)
      sequence = stream
      self.continuation = continuation
    } else {
      sequence = nil
      continuation = nil
    }
    self.callback = callback
  }

  /// The value reported last.
  var current: TransferProgress {
    state.withLock { TransferProgress(completedBytes: $0.completed, totalBytes: $0.total) }
  }

  /// Begins an attempt with `offset` bytes already done (a resumed download) out of `total`, when known. The first
  /// call reports the starting value; a retry starts counting again but progress never goes back.
  func start(offset: Int64 = 0, total: Int64?) {
    update { state in
      let first = !state.started
      state.started = true
      if let total { state.total = total }
      state.attemptBytes = offset
      if offset > state.completed {
        state.completed = offset
        return true
      }
      return first
    }
  }

  /// Adds `count` bytes to the current attempt.
  func advance(by count: Int) {
    guard count > 0 else { return }
    update { state in
      state.attemptBytes += Int64(count)
      return state.moveForward(to: state.attemptBytes)
    }
  }

  /// Reports that the current attempt has reached `completed` bytes (URLSession's running total).
  func reached(_ completed: Int64) {
    update { state in
      state.attemptBytes = max(state.attemptBytes, completed)
      return state.moveForward(to: completed)
    }
  }

  /// Ends the sequence; with `complete`, first reports the whole total (or fixes the total at the bytes counted
  /// when it was unknown).
  func finish(complete: Bool) {
    update { state in
      // A transfer that never started (a call without a body) ends without values.
      guard state.started else { return false }
      var moved = false
      if complete, let total = state.total, state.completed < total {
        state.completed = total
        moved = true
      } else if complete, state.total == nil {
        state.total = state.completed
        moved = true
      }
      return moved
    }
    let end = state.withLock { state in
      defer { state.finished = true }
      return !state.finished
    }
    if end { continuation?.finish() }
  }

  /// Applies `change` under the lock and reports the new value when it returns true.
  private func update(_ change: (inout State) -> Bool) {
    state.withLock { state in
      guard !state.finished, change(&state) else { return }
      let value = TransferProgress(completedBytes: state.completed, totalBytes: state.total)
      continuation?.yield(value)
      callback?(value)
    }
  }
}

extension ProgressReporter.State {
  /// Moves the reported point forward to `completed` (clamped to a known total); false when it does not move.
  fileprivate mutating func moveForward(to completed: Int64) -> Bool {
    let clamped = total.map { min(completed, $0) } ?? completed
    let first = !started
    started = true
    guard clamped > self.completed else { return first }
    self.completed = clamped
    return true
  }
}
