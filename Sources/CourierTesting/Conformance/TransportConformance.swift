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
  ///     machine may need more. The case adds the longest time a probe task (sleeping 10 ms at a time beside the
  ///     timed step) woke late, so a stall of the whole process is not taken for the transport's — nor is a
  ///     transport's own blocking of every thread of the shared pool.
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
    let run = ConformanceRun(transport: transport, slack: timingSlack, trusting: makeTransport)
    let limit = conformanceCase.timeLimit + timingSlack * 4
    do {
      try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
          try await conformanceCase.body(run)
          return true
        }
        group.addTask {
          try await Task.sleep(for: limit)
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
  let transport: any HTTPTransport
  private let timingSlack: Double
  /// The longest time a probe task was kept from running during this case's timed steps (see ``timed(_:)``).
  private let longestStall = Locked<Double>(0)
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

  /// How late a timed event may come: the slack the run was given, and the longest time the machine kept a probe
  /// task from running during the case's timed steps, as a stall of the whole process delays any transport alike.
  var slack: Double { timingSlack + longestStall.withLock { $0 } }

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
    configure(&configuration)
    return APIClient(configuration: configuration)
  }

  /// Throws a failure with `message` unless `condition` holds.
  func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    guard condition else { throw TransportConformanceFailure("", message()) }
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
  /// Meanwhile a probe task sleeps 10 ms at a time and notes how much later than that it woke; the longest delay
  /// counts towards ``slack``. On a machine busy with other work a deadline fires late for the same reason the probe
  /// wakes late, which is not the transport's doing.
  func timed<Value>(_ body: () async throws -> Value) async rethrows -> (Value, Double) {
    let start = ContinuousClock.now
    let probe = Task { [longestStall] in
      let interval = Duration.milliseconds(10)
      var last = start
      while true {
        let cancelled = (try? await Task.sleep(for: interval)) == nil
        let now = ContinuousClock.now
        let late = Self.seconds(last.duration(to: now) - interval)
        longestStall.withLock { $0 = max($0, late) }
        if cancelled { return }
        last = now
      }
    }
    let value: Value
    do {
      value = try await body()
    } catch {
      probe.cancel()
      await probe.value
      throw error
    }
    let elapsed = start.duration(to: .now)
    probe.cancel()
    await probe.value
    return (value, Self.seconds(elapsed))
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}

extension String {
  init(_ data: Data) { self.init(decoding: data, as: UTF8.self) }
}
