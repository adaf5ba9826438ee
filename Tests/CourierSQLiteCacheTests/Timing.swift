import Foundation

/// Sleeps for `milliseconds` (Task.sleep(for:) needs macOS 13, above the package's deployment target).
func pause(milliseconds: Int) async throws {
  try await Task.sleep(nanoseconds: UInt64(milliseconds) * 1_000_000)
}
