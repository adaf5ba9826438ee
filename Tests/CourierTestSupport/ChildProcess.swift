import Courier
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program the tests start (nginx, openssl, ip, sh, the cache writer), with `posix_spawn`.
///
/// Foundation's `Process.run()` is not used: on Linux it lists `/proc/self/fd` to close the child's descriptors and
/// copies each entry's whole 256-byte name, reading past the end of glibc's buffer; with the many sockets a test run
/// holds open it crashed the test process now and then (swift-corelibs-foundation pull request 5472). Here the child
/// closes every descriptor above 2 with `posix_spawn_file_actions_addclosefrom_np`, starts with no blocked signals and
/// default handlers (so it sees `SIGTERM`), and is reaped with `waitpid`.
package final class ChildProcess: Sendable {
  /// How a child ended.
  package enum Termination: Equatable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)
  }

  /// A failure to start a child.
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// The child's process ID.
  package let pid: pid_t
  /// How it ended, once reaped: its ID may then belong to another process.
  private let ended = Locked<Termination?>(nil)

  private init(pid: pid_t) {
    self.pid = pid
  }

  /// Starts `executable` with `arguments`; its standard input reads `/dev/null`, and its standard output and error go
  /// to `output` (a descriptor the caller keeps and closes) or to `/dev/null`.
  package static func start(_ executable: String, _ arguments: [String], output: Int32? = nil) throws -> ChildProcess {
    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t? = nil  // a pointer type on Darwin
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if let output {
      posix_spawn_file_actions_adddup2(&actions, output, 1)
      posix_spawn_file_actions_adddup2(&actions, output, 2)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    #if canImport(Glibc)
    // glibc 2.34 and later; the module map does not declare it, so it is looked up by name.
    guard let closeFrom = Self.addCloseFrom else {
      throw Failure(description: "posix_spawn_file_actions_addclosefrom_np is missing (glibc 2.34 or later)")
    }
    _ = closeFrom(&actions, 3)
    #endif

    #if canImport(Darwin)
    var attributes: posix_spawnattr_t? = nil
    let flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT)
    #else
    var attributes = posix_spawnattr_t()
    let flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    #endif
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = ([executable] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let error = (argv + [nil]).withUnsafeBufferPointer { argv in
      posix_spawn(&pid, executable, &actions, &attributes, argv.baseAddress!, environ)
    }
    guard error == 0 else {
      throw Failure(description: "\(executable) could not start: \(String(cString: strerror(error)))")
    }
    return ChildProcess(pid: pid)
  }

  #if canImport(Glibc)
  private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

  private static let addCloseFrom: AddCloseFrom? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
      return nil
    }
    return unsafeBitCast(symbol, to: AddCloseFrom.self)
  }()
  #endif

  /// Runs `executable` to its end on a thread of its own (never one of the concurrency pool's), its output going to
  /// a temporary file rather than a pipe, whose write end another child could inherit and keep open.
  package static func run(_ executable: String, _ arguments: [String]) async -> (status: Int32, output: String) {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(returning: runBlocking(executable, arguments))
      }
    }
  }

  /// ``run(_:_:)``, blocking the calling thread.
  package static func runBlocking(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("courier-child-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: log) }
    let descriptor = open(log.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return (-1, "could not create \(log.path)") }
    let child: ChildProcess
    do {
      child = try start(executable, arguments, output: descriptor)
    } catch {
      close(descriptor)
      return (-1, "\(error)")
    }
    close(descriptor)
    let status: Int32
    switch child.waitBlocking() {
    case .exited(let code): status = code
    case .signalled(let signal): status = 128 + signal
    }
    let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return (status, output.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Sends `signal` to the child.
  package func kill(_ signal: Int32 = SIGKILL) {
    ended.withLock { ended in
      if ended == nil { _ = Self.send(signal, to: pid) }
    }
  }

  private static func send(_ signal: Int32, to pid: pid_t) -> Int32 {
    #if canImport(Glibc)
    Glibc.kill(pid, signal)
    #else
    Darwin.kill(pid, signal)
    #endif
  }

  /// Waits for the child to end and reaps it, blocking the calling thread.
  package func waitBlocking() -> Termination {
    if let ended = ended.withLock({ $0 }) { return ended }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return ended.withLock { $0 } ?? .exited(-1) }
    }
    // The macros WIFEXITED and friends are not imported: bits 0–6 hold the signal, bits 8–15 the exit status.
    let signal = status & 0x7f
    let termination: Termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    ended.withLock { $0 = termination }
    return termination
  }

  /// Asks the child to end with `SIGTERM` (so that a server stops its own children too), waits up to `grace`
  /// seconds, then kills it with `SIGKILL`; reaps it, blocking the calling thread.
  @discardableResult
  package func terminateBlocking(grace: TimeInterval = 5) -> Termination {
    if let ended = ended.withLock({ $0 }) { return ended }
    kill(SIGTERM)
    let deadline = Date().addingTimeInterval(grace)
    var status: Int32 = 0
    while Date() < deadline {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid {
        let signal = status & 0x7f
        let termination: Termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        ended.withLock { $0 = termination }
        return termination
      }
      if reaped < 0, errno != EINTR { break }
      usleep(10_000)
    }
    kill(SIGKILL)
    return waitBlocking()
  }

  /// Waits for the child to end on a thread of its own.
  package func wait() async -> Termination {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread { [self] in
        continuation.resume(returning: waitBlocking())
      }
    }
  }
}
