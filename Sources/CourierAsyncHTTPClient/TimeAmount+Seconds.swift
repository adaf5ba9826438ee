import Foundation
import NIOCore

extension TimeAmount {
  /// `seconds` as a time amount, clamped to what fits (a negative or NaN interval is zero).
  init(seconds: TimeInterval) {
    let nanoseconds = seconds * 1_000_000_000
    if !(nanoseconds > 0) {
      self = .zero
    } else if nanoseconds >= Double(Int64.max) {
      self = .nanoseconds(.max)
    } else {
      self = .nanoseconds(Int64(nanoseconds))
    }
  }
}

extension NIODeadline {
  /// The deadline `seconds` from now; an interval too large to represent never expires.
  static func after(seconds: TimeInterval) -> NIODeadline {
    let amount = TimeAmount(seconds: seconds)
    let now = NIODeadline.now()
    guard amount.nanoseconds < Int64.max - Int64(now.uptimeNanoseconds) else { return .distantFuture }
    return now + amount
  }
}
