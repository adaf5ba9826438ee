import Foundation

/// Sizes for runs that prove a property at a small size in `swift test` and at scale in the soak script
/// (`Scripts/soak.sh`, which sets `COURIER_SOAK=1`): the same test, the same checks, more items, kills or schedules.
public enum Soak {
  /// Whether this process runs the soak sizes.
  public static var isOn: Bool { ProcessInfo.processInfo.environment["COURIER_SOAK"] == "1" }

  /// `unit` in `swift test`, `soak` in the soak script; `override`, when it names an environment variable holding a
  /// number, wins over both.
  public static func size(_ unit: Int, soak: Int, override: String? = nil) -> Int {
    if let override, let value = ProcessInfo.processInfo.environment[override].flatMap(Int.init) { return value }
    return isOn ? soak : unit
  }
}
