import Courier
import CourierTestSupport
import Foundation

/// A temporary directory laid out like `/sys/class/net`, whose interfaces a test brings up and down by writing
/// their `operstate` and `carrier` files.
final class FakeSysfs: Sendable {
  let root: URL

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-sysfs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: root)
  }

  /// A monitor over this tree that polls every 20 ms.
  func monitor(includes: @escaping @Sendable (String) -> Bool = { _ in true }) -> NetworkMonitor {
    .sysfs(root: root, pollInterval: 0.02, includes: includes)
  }

  /// Writes an interface's files. `carrier: nil` leaves no carrier file, as sysfs refuses to read it for a link
  /// that is administratively down; `hardware` adds the `device` link real adapters have.
  func set(
    _ name: String,
    operstate: String,
    carrier: Int? = nil,
    type: Int = 1,
    flags: Int = 0x1003,
    hardware: Bool = true,
    wireless: Bool = false
  ) throws {
    let target = root.appendingPathComponent(name)
    // A new interface is written beside the tree and moved in at once, so a monitor polling meanwhile never sees
    // it half written (without its `wireless` directory, say).
    let isNew = !FileManager.default.fileExists(atPath: target.path)
    let directory =
      isNew
      ? root.deletingLastPathComponent().appendingPathComponent("courier-sysfs-staging-\(UUID().uuidString)") : target
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try write("\(operstate)\n", to: directory.appendingPathComponent("operstate"))
    try write("\(type)\n", to: directory.appendingPathComponent("type"))
    try write("0x\(String(flags, radix: 16))\n", to: directory.appendingPathComponent("flags"))
    let carrierFile = directory.appendingPathComponent("carrier")
    if let carrier {
      try write("\(carrier)\n", to: carrierFile)
    } else {
      try? FileManager.default.removeItem(at: carrierFile)
    }
    if hardware {
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("device"), withIntermediateDirectories: true)
    }
    if wireless {
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("wireless"), withIntermediateDirectories: true)
    }
    if isNew { try FileManager.default.moveItem(at: directory, to: target) }
  }

  /// Brings an interface up (`operstate` up, carrier 1) or takes its link down (`operstate` down, carrier 0).
  func link(_ name: String, up: Bool) throws {
    try set(name, operstate: up ? "up" : "down", carrier: up ? 1 : 0)
  }

  /// The loopback interface as Linux shows it: operstate unknown, carrier 1.
  func addLoopback(name: String = "lo") throws {
    try set(name, operstate: "unknown", carrier: 1, type: 772, flags: 0x9, hardware: false)
  }

  func remove(_ name: String) throws {
    try FileManager.default.removeItem(at: root.appendingPathComponent(name))
  }

  private func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url, options: .atomic)
  }
}

/// Collects every element of a stream in the background until stopped.
final class StreamLog<Element: Sendable>: Sendable {
  private let recorder = Recorder<Element>()
  private let task: Task<Void, Never>

  init(_ stream: AsyncStream<Element>) {
    task = Task { [recorder] in
      for await element in stream { recorder.append(element) }
    }
  }

  deinit {
    task.cancel()
  }

  var values: [Element] { recorder.values }

  /// Waits until the log satisfies `condition`, for at most `seconds`; returns whether it did. The bound is the
  /// suite's hang limit, not a guess at how late a poll may come: pinned to one busy core, the suite starved the
  /// monitor's 20 ms poll for more than 15 s, the bound this wait had before.
  func waitUntil(within seconds: TimeInterval = hangSeconds, _ condition: ([Element]) -> Bool) async throws -> Bool {
    let stopwatch = Stopwatch()
    while !condition(values) {
      guard stopwatch.elapsed < seconds else { return false }
      try await Task.sleep(for: .milliseconds(10))
    }
    return true
  }
}
