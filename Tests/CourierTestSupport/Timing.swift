import Foundation

/// Sleeps for `milliseconds` (Task.sleep(for:) needs macOS 13, above the package's deployment target).
public func pause(milliseconds: Int) async throws {
  try await Task.sleep(nanoseconds: UInt64(milliseconds) * 1_000_000)
}

/// Measures elapsed seconds on the monotonic clock.
public struct Stopwatch: Sendable {
  /// When the stopwatch was made.
  public let start = ProcessInfo.processInfo.systemUptime
  /// Seconds since ``start``.
  public var elapsed: TimeInterval { ProcessInfo.processInfo.systemUptime - start }

  /// Starts a stopwatch.
  public init() {}
}

/// A fresh temporary folder, removed by the caller.
public func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-test-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
