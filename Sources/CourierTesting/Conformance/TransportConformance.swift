import Courier
import Foundation

/// The behaviour every `HTTPTransport` must show under Courier, checked against misbehaving servers on 127.0.0.1.
///
/// Courier decides HTTP's semantics itself (redirects, deadlines, authentication challenges, cookies, the
/// classification of failed connections), so a transport is a pipe: one request in, one response out. These cases
/// hold a transport to that, each against a ``ScriptedServer`` that answers byte by byte. Run every case over your
/// own transport in your tests:
///
/// ```swift
/// @Test(arguments: TransportConformance.cases)
/// func conforms(_ conformanceCase: TransportConformanceCase) async throws {
///   try await TransportConformance.check(conformanceCase, over: MyTransport())
/// }
/// ```
public enum TransportConformance {
  /// Every case, grouped by topic: redirects, deadlines, authentication challenges, failed and broken connections,
  /// message framing, request validation, cookies, start callbacks, streaming, and certificates that fail a check.
  public static var cases: [TransportConformanceCase] {
    redirectCases + deadlineCases + challengeCases + connectionCases + framingCases + requestCases + cookieCases
      + startCases + streamingCases + tlsCases
  }

  /// The cases that need no answer from a server (requests refused before they are sent): run them over a transport
  /// that never touches the network, such as ``StubTransport``, to check that nothing reaches it.
  public static var offlineCases: [TransportConformanceCase] {
    requestCases.filter { $0.isOffline }
  }

  /// Runs `conformanceCase` over `transport` and throws a ``TransportConformanceFailure`` that says what went wrong
  /// when the transport does not conform, or when the case does not finish within its time limit.
  ///
  /// - Parameters:
  ///   - conformanceCase: The case to run, one of ``cases``.
  ///   - transport: The transport under test.
  ///   - timingSlack: How late a timed event (a deadline's expiry, a refused connection's report) may come.
  ///     The default is the 100 ms Courier promises; a test process that runs hundreds of tests at once on a small
  ///     machine may need more. A stall of the whole process is not taken for the transport's: a probe on a thread
  ///     of its own, outside Swift's shared pool, sleeps 10 ms at a time beside each timed step, and the longest
  ///     time it woke late (at most 2 s) is added to the slack. So is, on Linux, the time the process's threads
  ///     waited in a run queue while other processes had the CPUs (less the probes' own waits, and no more than the
  ///     step's time less the process's own CPU time): a busy machine slows every step it shares the CPUs with,
  ///     without stopping the process. A thread that sleeps waits in no run queue, so a transport that waits, or
  ///     blocks threads, is not excused by its waiting; other work of the same process that is ready to run
  ///     meanwhile is counted too, so run the cases in a process of their own for the sharpest check. A transport
  ///     that blocks the threads of the shared pool cannot delay that thread, so its lateness is never forgiven: a late
  ///     check while the pool stood still and the process did not runs the case again (other work of a busy
  ///     process may hold the pool now and then), up to five times in all, and when every run was late so, the case
  ///     fails and says the pool was blocked. When the process itself stalled, or waited for a CPU, for more than
  ///     2 s and a check failed, the run is inconclusive and the case runs again, up to three times in all; never
  ///     passed.
  public static func check(
    _ conformanceCase: TransportConformanceCase,
    over transport: any HTTPTransport,
    timingSlack: Duration = .milliseconds(100)
  ) async throws {
    try await check(conformanceCase, over: transport, trusting: nil, timingSlack: timingSlack)
  }

  /// Runs `conformanceCase` over `transport` like ``check(_:over:timingSlack:)``, with a way to make a transport of
  /// the same kind that trusts custom roots, for the cases that check a certificate's name and dates.
  ///
  /// Those checks come only after the server's chain is trusted, so the cases make a root, ask
  /// `makeTransport` for a transport that trusts it, and present certificates it issued for another host or already
  /// expired. When `makeTransport` throws a `CourierError` of kind `.tls` (the transport cannot trust
  /// custom roots, as `URLSessionTransport` on Linux), the cases check that the unknown root is reported instead.
  ///
  /// ```swift
  /// try await TransportConformance.check(conformanceCase, over: MyTransport()) { policy in
  ///   try MyTransport(serverTrust: policy)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - conformanceCase: The case to run, one of ``cases``.
  ///   - transport: The transport under test.
  ///   - timingSlack: How late a timed event may come (see ``check(_:over:timingSlack:)``).
  ///   - makeTransport: Makes a transport like `transport` that trusts a policy's roots.
  public static func check(
    _ conformanceCase: TransportConformanceCase,
    over transport: any HTTPTransport,
    timingSlack: Duration = .milliseconds(100),
    trustingCustomRoots makeTransport: @escaping @Sendable (ServerTrustPolicy) async throws -> any HTTPTransport
  ) async throws {
    try await check(conformanceCase, over: transport, trusting: makeTransport, timingSlack: timingSlack)
  }

  private static func check(
    _ conformanceCase: TransportConformanceCase,
    over transport: any HTTPTransport,
    trusting makeTransport: (@Sendable (ServerTrustPolicy) async throws -> any HTTPTransport)?,
    timingSlack: Duration
  ) async throws {
    var stalls: [Double] = []
    var heldUp = 0
    while true {
      let run = ConformanceRun(transport: transport, slack: timingSlack, trusting: makeTransport)
      do {
        try await run.check(conformanceCase)
        return
      } catch let held as ConformanceRun.PoolHeldUp {
        // A transport that blocks the pool does so in every run; other work of a busy process now and then.
        heldUp += 1
        guard heldUp < ConformanceRun.poolAttempts else {
          throw TransportConformanceFailure(
            conformanceCase.name, "in each of \(heldUp) runs: \(held.message)")
        }
      } catch let inconclusive as ConformanceRun.Inconclusive {
        stalls.append(inconclusive.stall)
        guard stalls.count < ConformanceRun.attempts else {
          let seconds = stalls.map { "\(($0 * 1000).rounded() / 1000) s" }.joined(separator: ", ")
          throw TransportConformanceFailure(
            conformanceCase.name,
            "inconclusive: a check failed in each of \(stalls.count) runs while the machine held the whole process "
              + "up for longer than the \(ConformanceRun.stallAllowance) s the checks allow (\(seconds): it stood "
              + "still, as a thread outside Swift's shared pool saw, or its threads waited for a CPU); last: "
              + "\(inconclusive.message)")
        }
      }
    }
  }
}

extension ConformanceRun {
  /// Runs `conformanceCase` once with this run, stopping its servers after.
  fileprivate func check(_ conformanceCase: TransportConformanceCase) async throws {
    let run = self
    let limit = conformanceCase.timeLimit + Duration.seconds(timingSlack * 4)
    // The limit tells a hung case from a slow one: it is extended by as long as Swift's shared pool, which the case
    // needs to make progress, measurably stood still meanwhile (a busy machine), so that only a case that makes no
    // progress while the pool runs ends here.
    let monitor = StallMonitor()
    defer { Task { _ = await monitor.stop() } }
    do {
      try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
          try await conformanceCase.body(run)
          return true
        }
        group.addTask {
          let start = ContinuousClock.now
          var end = start + limit
          while ContinuousClock.now < end {
            try await Task.sleep(until: end)
            end = start + limit + .seconds(monitor.current.poolTotal)
          }
          return false
        }
        let finished = try await group.next() ?? false
        group.cancelAll()
        guard finished else {
          throw TransportConformanceFailure(conformanceCase.name, "did not finish within \(limit)")
        }
      }
    } catch let failure as TransportConformanceFailure {
      await run.stopServers()
      throw failure.caseName.isEmpty ? TransportConformanceFailure(conformanceCase.name, failure.message) : failure
    } catch {
      await run.stopServers()
      throw error
    }
    await run.stopServers()
  }
}

/// One behaviour a transport must show under Courier: a name, a time limit, and the check.
public struct TransportConformanceCase: Sendable, CustomStringConvertible {
  /// What the case checks, as a sentence.
  public let name: String
  /// How long the case may run before it fails.
  public let timeLimit: Duration
  let body: @Sendable (ConformanceRun) async throws -> Void
  /// Whether the case passes without a server answering (see ``TransportConformance/offlineCases``).
  let isOffline: Bool

  init(
    _ name: String, limit: Duration = .seconds(10), offline: Bool = false,
    _ body: @escaping @Sendable (ConformanceRun) async throws -> Void
  ) {
    self.name = name
    self.timeLimit = limit
    self.isOffline = offline
    self.body = body
  }

  /// The name.
  public var description: String { name }
}

/// A transport that did not behave as Courier requires: the case and what was seen.
public struct TransportConformanceFailure: Error, CustomStringConvertible {
  /// The case that failed.
  public let caseName: String
  /// What was expected and what happened instead.
  public let message: String

  init(_ caseName: String, _ message: String) {
    self.caseName = caseName
    self.message = message
  }

  /// `case: message`.
  public var description: String { "\(caseName): \(message)" }
}

/// What a case runs with: the transport under test, the servers it started, and the checks.
final class ConformanceRun: Sendable {
  /// The longest stall of the whole process a timed check forgives, in seconds; past it a failed check is
  /// inconclusive.
  static let stallAllowance = 2.0
  /// How many times a case runs when its runs are inconclusive.
  static let attempts = 3
  /// How much longer than the process Swift's shared pool must have been held up before a late check is taken for
  /// the pool's (run again, ``PoolHeldUp``) rather than the transport's: five of the probe's 10 ms sleeps.
  static let poolBlockReported = 0.05

  /// A check failed while the process had stalled for longer than ``stallAllowance``: the run tells nothing.
  struct Inconclusive: Error {
    let stall: Double
    let message: String
  }

  /// A check failed while Swift's shared pool was held up and the process was not: the transport may block the pool,
  /// or other work of the process held it. The case runs again, up to ``poolAttempts`` times; a transport that blocks
  /// the pool fails in every run.
  struct PoolHeldUp: Error {
    let message: String
  }

  /// How many times a case runs while its checks fail with the shared pool held up.
  static let poolAttempts = 5

  let transport: any HTTPTransport
  /// The slack the run was given, in seconds.
  let timingSlack: Double
  /// The longest stalls measured during this case's timed steps (see ``timed(_:)``).
  private let stalls = Locked(StallMonitor.Stalls())
  private let servers = Locked<[ScriptedServer]>([])
  private let tlsServers = Locked<[TLSServer]>([])
  private let makeTrustingTransport: (@Sendable (ServerTrustPolicy) async throws -> any HTTPTransport)?

  init(
    transport: any HTTPTransport, slack: Duration,
    trusting makeTransport: (@Sendable (ServerTrustPolicy) async throws -> any HTTPTransport)? = nil
  ) {
    self.transport = transport
    self.makeTrustingTransport = makeTransport
    self.timingSlack = Self.seconds(slack)
  }

  /// How late a timed event may come: the slack the run was given, and the longest time the machine held the whole
  /// process up during one of the case's timed steps, up to ``stallAllowance`` — measured on a thread outside
  /// Swift's shared pool, or as the time the process's threads waited for a CPU that other processes had (see
  /// ``StallMonitor/Stalls/waited``), so a transport that blocks the pool's threads cannot excuse itself.
  var slack: Double { timingSlack + min(processStall, Self.stallAllowance) }

  /// The longest time the machine held the whole process up during one of the case's timed steps, in seconds: it
  /// stood still, or its threads waited for a CPU.
  var processStall: Double { stalls.withLock { $0.machine } }

  /// The longest time Swift's shared pool ran nothing else during the case's timed steps, in seconds.
  var poolStall: Double { stalls.withLock { $0.pool } }

  /// Starts a scripted server that the run stops when the case ends.
  func server(_ script: @escaping ScriptedServer.Script) async throws -> ScriptedServer {
    let server = try await ScriptedServer.start(script)
    servers.withLock { $0.append(server) }
    return server
  }

  /// A server that answers every request on every connection with `respond`.
  func answering(
    _ respond: @escaping @Sendable (ScriptedRequest, ScriptedConnection) async throws -> Void
  ) async throws -> ScriptedServer {
    try await server { connection in
      while let request = try await connection.readRequest() { try await respond(request, connection) }
    }
  }

  /// Starts a TLS server presenting `issued` that the run stops when the case ends.
  func tlsServer(_ issued: TestAuthority.Issued) async throws -> TLSServer {
    let server = try await TLSServer(issued)
    tlsServers.withLock { $0.append(server) }
    return server
  }

  /// A transport like the one under test that trusts `authority`'s root alone, or `nil` when the run has no way to
  /// make one or the transport refuses custom roots.
  func transport(trusting authority: TestAuthority) async throws -> (any HTTPTransport)? {
    guard let makeTrustingTransport else { return nil }
    do {
      return try await makeTrustingTransport(ServerTrustPolicy.roots(pem: authority.pem))
    } catch let error as CourierError where error.kind == .tls {
      return nil
    }
  }

  func stopServers() async {
    for server in servers.withLock({ $0 }) { await server.stop() }
    for server in tlsServers.withLock({ $0 }) { await server.stop() }
  }

  /// A client of `server` over the transport under test.
  func client(_ server: ScriptedServer, _ configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
    var configuration = APIClient.Configuration(baseURL: server.baseURL, transport: transport)
    // A case about deadlines sets its own; the others never end by the clock of a busy machine.
    configuration.timeout = 600
    configure(&configuration)
    return APIClient(configuration: configuration)
  }

  /// Throws a failure with `message` unless `condition` holds: ``Inconclusive`` when the process stalled for longer
  /// than ``stallAllowance`` meanwhile, and ``PoolHeldUp``, which says so, when Swift's shared pool was held up while
  /// the process was not.
  func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    guard !condition else { return }
    let stalls = self.stalls.withLock { $0 }
    if stalls.machine > Self.stallAllowance { throw Inconclusive(stall: stalls.machine, message: message()) }
    let text = message()
    if stalls.pool - stalls.process > Self.poolBlockReported {
      throw PoolHeldUp(
        message: text + "; meanwhile Swift's shared pool ran nothing else for \(Self.rounded(stalls.pool)) s while "
          + "the process stood still for at most \(Self.rounded(stalls.process)) s: something on the call's path "
          + "blocks the threads of the shared pool (a lock or semaphore held across a wait, a synchronous read or "
          + "sleep)")
    }
    let allowed =
      " (slack \(Self.rounded(slack)) s: \(Self.rounded(timingSlack)) s given; the process stood still for "
      + "\(Self.rounded(stalls.process)) s and waited for a CPU for \(Self.rounded(stalls.waited)) s)"
    throw TransportConformanceFailure("", text + allowed)
  }

  /// The `CourierError` `body` throws; a failure when it succeeds or throws anything else.
  func error<Value>(_ body: () async throws -> Value) async throws -> CourierError {
    let result: Result<Value, any Error>
    do { result = .success(try await body()) } catch { result = .failure(error) }
    switch result {
    case .success(let value): throw TransportConformanceFailure("", "expected an error, got \(value)")
    case .failure(let error as CourierError): return error
    case .failure(let error): throw TransportConformanceFailure("", "expected a CourierError, got \(error)")
    }
  }

  /// Runs `body` and returns its result with the seconds it took.
  ///
  /// Meanwhile a ``StallMonitor`` measures how long the whole process and Swift's shared pool stood still; the
  /// process's stall counts towards ``slack`` (up to ``stallAllowance``), the pool's only towards the diagnosis of a
  /// failed check.
  func timed<Value>(_ body: () async throws -> Value) async rethrows -> (Value, Double) {
    let start = ContinuousClock.now
    let monitor = StallMonitor()
    let value: Value
    do {
      value = try await body()
    } catch {
      record(await monitor.stop())
      throw error
    }
    let elapsed = start.duration(to: .now)
    record(await monitor.stop())
    return (value, Self.seconds(elapsed))
  }

  /// Keeps the longest stalls measured.
  func record(_ measured: StallMonitor.Stalls) {
    stalls.withLock { stalls in
      stalls.process = max(stalls.process, measured.process)
      stalls.waited = max(stalls.waited, measured.waited)
      stalls.pool = max(stalls.pool, measured.pool)
    }
  }

  private static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

  /// `duration` in seconds.
  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}

extension String {
  init(_ data: Data) { self.init(decoding: data, as: UTF8.self) }
}
