import Foundation

/// Sleeps for `seconds`, throwing `CancellationError` at once when the task is cancelled.
func sleep(seconds: TimeInterval) async throws {
  guard seconds > 0 else { return }
  try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1e9))
}
