import Foundation

@testable import Courier

/// A delay clock that records every requested wait and returns at once.
struct RecordingClock: DelayClock {
  let delays = Locked<[TimeInterval]>([])
  var now: Date { Date(timeIntervalSince1970: 1_800_000_000) }

  func sleep(seconds: TimeInterval) async throws {
    try Task.checkCancellation()
    delays.withLock { $0.append(seconds) }
  }

  var recorded: [TimeInterval] { delays.withLock { $0 } }
}
