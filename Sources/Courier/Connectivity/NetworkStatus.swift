/// Whether the device has a usable network link.
///
/// ```swift
/// for await status in monitor.statuses() {
///   banner.isHidden = status == .online
/// }
/// ```
///
/// `online` means at least one network interface other than loopback is up. It says nothing about whether a given
/// server can be reached: a request can still fail with ``CourierError/isNoConnection`` while online.
public enum NetworkStatus: String, Sendable, Hashable, CustomStringConvertible {
  /// At least one interface other than loopback is up.
  case online
  /// No interface other than loopback is up: requests cannot leave the device.
  case offline

  /// `online` or `offline`.
  public var description: String { rawValue }
}
