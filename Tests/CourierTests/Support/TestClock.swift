import CourierTestSupport
import CourierTesting
import Foundation

/// A delay clock that records every requested wait and returns at once: CourierTesting's ``TestDelayClock``.
typealias RecordingClock = TestDelayClock

extension TestDelayClock {
  /// Every wait requested, in order.
  var recorded: [TimeInterval] { sleeps }
}
