import Foundation

/// Reads which network interfaces are up from a sysfs tree laid out like Linux's `/sys/class/net`: one directory
/// per interface holding `operstate`, `carrier`, `flags` and `type` files.
struct SysfsInterfaceReader: Sendable {
  /// `ARPHRD_ETHER`, also reported by Wi-Fi devices.
  static let etherType = 1
  /// `ARPHRD_LOOPBACK`.
  static let loopbackType = 772
  /// `ARPHRD_RAWIP`, used by many cellular modems.
  static let rawIPType = 519
  /// `IFF_UP`.
  static let upFlag = 0x1
  /// `IFF_LOOPBACK`.
  static let loopbackFlag = 0x8

  let root: URL
  let includes: @Sendable (String) -> Bool

  /// The path now. A tree that cannot be listed (no sysfs) reads as online, so a monitor never blocks requests it
  /// cannot judge.
  func read() -> NetworkPath {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) else {
      return NetworkPath(isOnline: true)
    }
    let interfaces = names.sorted().filter(includes).compactMap(interfaceIfUp)
    return NetworkPath(isOnline: !interfaces.isEmpty, interfaces: interfaces)
  }

  /// The interface called `name` when it is up and not loopback.
  func interfaceIfUp(_ name: String) -> NetworkInterface? {
    let directory = root.appendingPathComponent(name, isDirectory: true)
    let type = number(in: directory, "type")
    let flags = number(in: directory, "flags", radix: 16)
    if name == "lo" || type == Self.loopbackType || flags.map({ $0 & Self.loopbackFlag != 0 }) == true { return nil }
    if let flags, flags & Self.upFlag == 0 { return nil }
    let carrier = number(in: directory, "carrier")
    switch text(in: directory, "operstate") {
    case "up":
      break
    case "unknown", nil:
      // Tunnels and some drivers never report an operational state; their carrier says whether they pass traffic.
      guard carrier == 1 else { return nil }
    default:
      return nil  // down, lowerlayerdown, dormant, notpresent, testing
    }
    return NetworkInterface(name: name, kind: kind(of: name, in: directory, type: type))
  }

  private func kind(of name: String, in directory: URL, type: Int?) -> NetworkInterface.Kind {
    let manager = FileManager.default
    if manager.fileExists(atPath: directory.appendingPathComponent("wireless").path)
      || manager.fileExists(atPath: directory.appendingPathComponent("phy80211").path)
    {
      return .wifi
    }
    if type == Self.rawIPType || name.hasPrefix("wwan") { return .cellular }
    // Hardware has a `device` link; bridges, veth pairs and other virtual Ethernet links do not.
    if type == Self.etherType, manager.fileExists(atPath: directory.appendingPathComponent("device").path) {
      return .wiredEthernet
    }
    return .other
  }

  /// The trimmed contents of a file; `nil` when it cannot be read (sysfs refuses `carrier` of a link that is down).
  private func text(in directory: URL, _ file: String) -> String? {
    guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path) else {
      return nil
    }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }

  /// A file's number: decimal, or hexadecimal with an optional `0x` for `flags`.
  private func number(in directory: URL, _ file: String, radix: Int = 10) -> Int? {
    guard var text = text(in: directory, file) else { return nil }
    if radix == 16, text.hasPrefix("0x") { text.removeFirst(2) }
    return Int(text, radix: radix)
  }
}
