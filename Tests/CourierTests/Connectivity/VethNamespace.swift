#if os(Linux)
import Foundation
import Testing
import CourierTestSupport

/// A network namespace joined to the host by a veth pair, made with iproute2 for one test and removed afterwards.
///
/// The host end stays in the host's namespace (so its state shows in the host's `/sys/class/net`); the peer end is
/// moved into the namespace. A veth end is operationally up only when both ends are up, so bringing either end down
/// takes the other's link down too.
final class VethNamespace: Sendable {
  let name: String
  /// The end left in the host's namespace.
  let hostEnd: String
  /// The end moved into the namespace.
  let peerEnd: String
  private let ip: String
  private let viewers = Recorder<ChildProcess>()

  private init(ip: String, suffix: String) {
    self.ip = ip
    name = "courier-test-\(suffix)"
    hostEnd = "cvh\(suffix)"
    peerEnd = "cvp\(suffix)"
  }

  /// Runs `body` with a new namespace and pair (both ends down), and removes them afterwards, also when `body`
  /// throws. Cancels the calling test with the reason when `ip` is missing or namespaces cannot be created here.
  static func with(_ body: (VethNamespace) async throws -> Void) async throws {
    let namespace = try await create()
    do {
      try await body(namespace)
    } catch {
      await namespace.destroy()
      throw error
    }
    await namespace.destroy()
  }

  private static func create() async throws -> VethNamespace {
    let candidates = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
    guard let ip = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
      try Test.cancel("Skipped: iproute2's `ip` is not installed (looked in \(candidates.joined(separator: ", ")))")
    }
    let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    let namespace = VethNamespace(ip: ip, suffix: suffix)
    let added = await ChildProcess.run(ip, ["netns", "add", namespace.name])
    guard added.status == 0 else {
      try Test.cancel(
        "Skipped: creating a network namespace needs root (CAP_SYS_ADMIN); `ip netns add` failed: \(added.output)")
    }
    do {
      try await namespace.ip("link", "add", namespace.hostEnd, "type", "veth", "peer", "name", namespace.peerEnd)
      try await namespace.ip("link", "set", namespace.peerEnd, "netns", namespace.name)
    } catch {
      await namespace.destroy()
      throw error
    }
    return namespace
  }

  /// Brings the host end up or down.
  func setHostEnd(up: Bool) async throws {
    try await ip("link", "set", hostEnd, up ? "up" : "down")
  }

  /// Brings the peer end, inside the namespace, up or down.
  func setPeerEnd(up: Bool) async throws {
    try await ip("netns", "exec", name, ip, "link", "set", peerEnd, up ? "up" : "down")
  }

  /// The namespace's own `/sys/class/net`, as seen through a process kept running inside it: `ip netns exec`
  /// mounts the namespace's sysfs for that process, and `/proc/<pid>/root` shows its view of the file system.
  /// The process is stopped by ``destroy()`` (and ends by itself after 60 s).
  func namespaceSysfs() async throws -> URL {
    let process = try ChildProcess.start(ip, ["netns", "exec", name, "sleep", "60"])
    viewers.append(process)
    let root = URL(fileURLWithPath: "/proc/\(process.pid)/root/sys/class/net")
    let stopwatch = Stopwatch()
    while !FileManager.default.fileExists(atPath: root.appendingPathComponent(peerEnd).path) {
      guard stopwatch.elapsed < 20 else { throw SetupError("the namespace's sysfs did not appear under \(root.path)") }
      try await Task.sleep(for: .milliseconds(10))
    }
    return root
  }

  /// Stops the viewer processes and deletes the namespace, which deletes the pair.
  func destroy() async {
    for process in viewers.values {
      process.kill(SIGKILL)
      _ = await process.wait()
    }
    _ = await ChildProcess.run(ip, ["netns", "del", name])
    _ = await ChildProcess.run(ip, ["link", "del", hostEnd])  // Normally gone with the namespace already.
  }

  private func ip(_ arguments: String...) async throws {
    let result = await ChildProcess.run(ip, arguments)
    guard result.status == 0 else {
      throw SetupError("ip \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.output)")
    }
  }

  struct SetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}

#endif
