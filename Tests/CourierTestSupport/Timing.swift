import Foundation
import Testing

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

/// A database file `name` in a fresh temporary folder, removed by the caller with the folder.
public func temporaryDatabase(named name: String = "outbox.sqlite") throws -> (folder: URL, path: String) {
  let folder = try temporaryDirectory()
  return (folder, folder.appendingPathComponent(name).path)
}

/// How long a wait for an event may take before it counts as hung: longer than a call waits for its turn in the
/// whole suite pinned to one core beside a CPU hog (about a minute seen), short enough that a deliberate bug that makes
/// a test wait forever fails it in minutes. It asserts nothing about speed: a test that checks how fast something
/// happens measures that itself.
///
/// 120 s, or the seconds in `COURIER_HANG_SECONDS`: Scripts/check-mutations.sh runs a few tests at a time on a quiet
/// machine, where a shorter limit tells a hung mutant sooner (it first shows every mutant's tests pass within it).
public let hangSeconds: TimeInterval = {
  guard let text = ProcessInfo.processInfo.environment["COURIER_HANG_SECONDS"], let seconds = TimeInterval(text),
    seconds > 0
  else { return 120 }
  return seconds
}()

extension Trait where Self == TimeLimitTrait {
  /// The time limit of every suite: longer than a test takes in the whole suite on two busy cores, and than most
  /// take pinned to one core beside a CPU hog, so that only a hang meets it; short enough that a deliberate bug that
  /// makes a test hang fails it in minutes (Scripts/check-mutations.sh). One and a half times ``hangSeconds`` in whole
  /// minutes, at least one: 3 minutes unless `COURIER_HANG_SECONDS` says otherwise.
  public static var hangGuard: Self {
    .timeLimit(.minutes(max(1, Int((hangSeconds * 1.5 / 60).rounded(.up)))))
  }
}

/// Waits until `condition` holds, checking every 5 ms; records a failure and throws after `seconds` (a condition
/// that never comes is a failing test, not a stuck one).
public func waitUntil(
  _ what: String, within seconds: TimeInterval = hangSeconds, _ condition: () throws -> Bool
) async throws {
  let stopwatch = Stopwatch()
  while try !condition() {
    guard stopwatch.elapsed < seconds else { throw WaitTimedOut(what: what, seconds: seconds) }
    try await Task.sleep(for: .milliseconds(5))
  }
}

/// ``waitUntil(_:within:_:)`` for a condition that awaits (a store's read, an actor's state).
public func waitUntil(
  _ what: String, within seconds: TimeInterval = hangSeconds, _ condition: () async throws -> Bool
) async throws {
  let stopwatch = Stopwatch()
  while try await !condition() {
    guard stopwatch.elapsed < seconds else { throw WaitTimedOut(what: what, seconds: seconds) }
    try await Task.sleep(for: .milliseconds(5))
  }
}

/// A condition that ``waitUntil(_:within:_:)`` waited for did not come.
public struct WaitTimedOut: Error, CustomStringConvertible {
  /// What was waited for.
  public let what: String
  /// How long.
  public let seconds: TimeInterval
  /// `what` and how long.
  public var description: String { "waited \(seconds) s for \(what)" }

  /// A wait of `seconds` for `what` that ended without it.
  public init(what: String, seconds: TimeInterval) {
    self.what = what
    self.seconds = seconds
  }
}
