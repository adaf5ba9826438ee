import Courier
import Foundation
import HTTPTypes

/// A simulated `BackgroundSystem`: the background sessions and background time of an app that the system suspends,
/// ends and relaunches, driven one step at a time by a seeded schedule, so that code which runs only on a device runs
/// in a test, and a failing schedule replays from its seed.
///
/// It models what Apple documents for background `URLSession`s:
/// - tasks outlive the app: ``endApp()`` ends the process (its sessions and background time go), the tasks go on;
/// - the events of a session are delivered only to a session made again with its identifier, in an order the
///   schedule picks, and then `backgroundSessionDidFinishEvents` once every held event was delivered;
/// - `BackgroundSession.runningTaskDescriptions()` lists only tasks still running, never one that ended, also when
///   its end was not delivered yet. A listing asked for before the events held when the session was made are
///   delivered is answered after them: the session's delegate calls and its listings' answers come in order, one
///   serial queue (an assumption: Apple's documentation does not say);
/// - one valid session per identifier in a process: a second throws;
/// - redirects are followed without asking the delegate; what URLSession keeps across one is not documented, so the
///   simulator keeps the least that is reported: `Authorization` is dropped, and a 303 (and a 301 or 302 of a
///   POST) becomes a GET without a body;
/// - the server's certificate is checked against the delegate's `ServerTrustPolicy` (its roots and pins) before
///   the request is sent;
/// - background time runs out when the schedule says (``expireBackgroundTime()``).
///
/// ```swift
/// let system = BackgroundSystemSimulator(seed: seed) { request, body in
///   (HTTPResponse(status: .created), Data())
/// }
/// while system.step() {}
/// ```
public final class BackgroundSystemSimulator: BackgroundSystem, Sendable {
  /// The server's answer to a request and its body.
  public typealias Server = @Sendable (HTTPRequest, Data) -> (HTTPResponse, Data)

  /// The seed of the schedule.
  public let seed: UInt64
  private let server: Server
  private let certificateChain: [Data]
  private let trustedBySystem: Bool
  private let state: Locked<State>

  struct RunningTask {
    var identifier: String
    var upload: BackgroundUpload
    var body: Data
  }

  struct State {
    var random: SplitMix64
    var process = 0
    var sessions: [String: SimulatedBackgroundSession] = [:]
    var running: [RunningTask] = []
    var held: [String: [(description: String, outcome: BackgroundTaskOutcome)]] = [:]
    var finishDue: Set<String> = []
    /// Sessions invalidated while their tasks run: valid until the last one's end is delivered.
    var invalidating: Set<String> = []
    var backgroundTime: [Int: @Sendable () async -> Void] = [:]
    var nextActivity = 0
    /// Listings asked for while the session's held events were not all delivered: answered once they are.
    var listings: [String: [CheckedContinuation<[String], Never>]] = [:]
  }

  /// A simulator whose schedule is seeded with `seed`, whose server answers with `server`, presenting
  /// `certificateChain` (DER, leaf first), which the system's own roots trust when `trustedBySystem`.
  public init(
    seed: UInt64, certificateChain: [Data] = [], trustedBySystem: Bool = true, server: @escaping Server
  ) {
    self.seed = seed
    self.server = server
    self.certificateChain = certificateChain
    self.trustedBySystem = trustedBySystem
    state = Locked(State(random: SplitMix64(seed: seed)))
  }

  // MARK: BackgroundSystem

  /// Makes the session of `identifier` in the simulated process; events held for it are delivered from now on, as
  /// the schedule picks, then `backgroundSessionDidFinishEvents`. Throws while the process has a valid one.
  public func makeSession(identifier: String, delegate: any BackgroundSessionDelegate) throws -> any BackgroundSession {
    try state.withLock { state in
      guard state.sessions[identifier] == nil else {
        throw CourierError(.invalidRequest, "This process has a valid background session \(identifier) already")
      }
      let session = SimulatedBackgroundSession(
        identifier: identifier, process: state.process, delegate: delegate, system: self)
      state.sessions[identifier] = session
      if !(state.held[identifier] ?? []).isEmpty { state.finishDue.insert(identifier) }
      return session
    }
  }

  /// Begins an activity of background time, which ``expireBackgroundTime()`` or ``endApp()`` ends.
  public func beginBackgroundTime(
    reason: String, expired: @escaping @Sendable () async -> Void
  ) -> @Sendable () -> Void {
    let id = state.withLock { state in
      state.nextActivity += 1
      state.backgroundTime[state.nextActivity] = expired
      return state.nextActivity
    }
    return { [weak self] in _ = self?.state.withLock { $0.backgroundTime.removeValue(forKey: id) } }
  }

  // MARK: Driving

  /// Takes one step the schedule picks among those possible: a running task reaches the server (or fails on the
  /// way), or one held event is delivered to its session. Returns `false` when no step is possible.
  @discardableResult
  public func step() -> Bool {
    enum Step {
      case run(Int)
      case deliver(String)
    }
    let picked: Step? = state.withLock { state in
      var steps = state.running.indices.map(Step.run)
      for (identifier, events) in state.held where !events.isEmpty && state.sessions[identifier] != nil {
        steps.append(.deliver(identifier))
      }
      guard !steps.isEmpty else { return nil }
      return steps[state.random.next(below: steps.count)]
    }
    switch picked {
    case .run(let index)?: run(index)
    case .deliver(let identifier)?: deliver(identifier)
    case nil: return false
    }
    return true
  }

  /// Ends the app's process: its sessions and background time go without a word; tasks go on, and their events wait
  /// for a session made with their identifier by the next process.
  public func endApp() {
    state.withLock { state in
      state.process += 1
      state.sessions = [:]
      state.backgroundTime = [:]
      state.finishDue = []
      state.invalidating = []
    }
    // The ended process never hears the answer; its code, which a test cannot stop, hears that every task runs.
    let (waiting, all) = state.withLock { state in
      defer { state.listings = [:] }
      let all = state.running.map(\.upload.taskDescription) + state.held.values.flatMap { $0.map(\.description) }
      return (state.listings.values.flatMap { $0 }, all)
    }
    for listing in waiting { listing.resume(returning: all) }
  }

  /// Ends the app's background time: every activity begun and not ended is told it expired, and this returns once
  /// each of them stopped (returned from its `expired`), as the system waits for them before suspending the app.
  public func expireBackgroundTime() async {
    let expiring = state.withLock { state in
      defer { state.backgroundTime = [:] }
      return Array(state.backgroundTime.values)
    }
    for expired in expiring { await expired() }
  }

  /// The identifiers whose sessions have events waiting and no session in this process to take them: the system
  /// relaunches the app in the background for them.
  public var identifiersAwaitingLaunch: [String] {
    state.withLock { state in
      state.held.filter { !$0.value.isEmpty && state.sessions[$0.key] == nil }.map(\.key).sorted()
    }
  }

  /// The number of tasks still running.
  public var runningTaskCount: Int { state.withLock { $0.running.count } }

  /// The descriptions of the tasks still running, of every session.
  public var runningTaskDescriptions: [String] { state.withLock { $0.running.map(\.upload.taskDescription) } }

  /// The number of ended tasks whose end was not delivered yet.
  public var heldEventCount: Int { state.withLock { $0.held.values.reduce(0) { $0 + $1.count } } }

  /// Whether any activity of background time is begun and not ended.
  public var holdsBackgroundTime: Bool { state.withLock { !$0.backgroundTime.isEmpty } }

  /// A number below `bound` from the schedule, for a test's own choices: they replay from the seed too.
  public func choose(below bound: Int) -> Int {
    state.withLock { $0.random.next(below: max(bound, 1)) }
  }

  // MARK: Sessions

  func upload(_ upload: BackgroundUpload, session: SimulatedBackgroundSession) throws {
    let body = try Data(contentsOf: upload.file)
    try state.withLock { state in
      guard state.sessions[session.identifier] === session else {
        throw CourierError(.invalidRequest, "The background session \(session.identifier) was invalidated")
      }
      state.running.append(RunningTask(identifier: session.identifier, upload: upload, body: body))
    }
  }

  func isValid(_ session: SimulatedBackgroundSession) -> Bool {
    state.withLock { $0.sessions[session.identifier] === session }
  }

  func runningDescriptions(of identifier: String) async -> [String] {
    await withCheckedContinuation { continuation in
      let now: [String]? = state.withLock { state in
        guard !state.finishDue.contains(identifier) else {
          state.listings[identifier, default: []].append(continuation)
          return nil
        }
        return state.running.filter { $0.identifier == identifier }.map(\.upload.taskDescription)
      }
      if let now { continuation.resume(returning: now) }
    }
  }

  func invalidate(_ session: SimulatedBackgroundSession) {
    state.withLock { state in
      guard state.sessions[session.identifier] === session else { return }
      state.invalidating.insert(session.identifier)
      Self.endInvalidation(of: session.identifier, in: &state)
    }
  }

  /// Ends the invalidation of `identifier`'s session once none of its tasks runs or waits to be delivered.
  private static func endInvalidation(of identifier: String, in state: inout State) {
    guard state.invalidating.contains(identifier), !state.running.contains(where: { $0.identifier == identifier }),
      state.held[identifier]?.isEmpty ?? true
    else { return }
    state.invalidating.remove(identifier)
    state.sessions[identifier] = nil
  }

  private func run(_ index: Int) {
    let (task, policy, fate) = state.withLock { state in
      let task = state.running.remove(at: index)
      return (task, state.sessions[task.identifier]?.delegate.serverTrustPolicy, state.random.next(below: 6))
    }
    let outcome: BackgroundTaskOutcome
    if let failure = trustFailure(policy ?? .system, host: task.upload.request.authority ?? "") {
      outcome = .failed(failure)
    } else if fate == 0 {
      // The link went down before the request arrived.
      outcome = .failed(CourierError(.connectionLost, "The network connection was lost"))
    } else {
      var request = task.upload.request
      var body = task.body
      var answer = server(request, body)
      // Redirects are followed without asking the delegate. What URLSession keeps across one is not documented: the
      // simulator keeps the least that is reported, so that an app cannot come to rely on more. `Authorization` is
      // dropped, and a 303 (and a 301 or 302 of a POST) becomes a GET without a body.
      var hops = 0
      while (300..<400).contains(answer.0.status.code), answer.0.status != .notModified, hops < 16,
        let location = answer.0.headerFields[.location], let url = URL(string: location)
      {
        request.path = (url.path.isEmpty ? "/" : url.path) + (url.query.map { "?" + $0 } ?? "")
        if let host = url.host { request.authority = url.port.map { "\(host):\($0)" } ?? host }
        request.headerFields[.authorization] = nil
        let status = answer.0.status.code
        if (status == 303 && request.method != .head) || ((status == 301 || status == 302) && request.method == .post) {
          request.method = .get
          request.headerFields[.contentType] = nil
          body = Data()
        }
        answer = server(request, body)
        hops += 1
      }
      // fate 1: the server acted on the request, but its answer was lost on the way back.
      outcome =
        fate == 1 ? .failed(CourierError(.connectionLost, "The answer was lost")) : .answered(answer.0, answer.1)
    }
    state.withLock { $0.held[task.identifier, default: []].append((task.upload.taskDescription, outcome)) }
  }

  private func deliver(_ identifier: String) {
    let delivery = state.withLock { state -> (SimulatedBackgroundSession, String, BackgroundTaskOutcome, Bool)? in
      guard let session = state.sessions[identifier], var events = state.held[identifier], !events.isEmpty else {
        return nil
      }
      let event = events.remove(at: state.random.next(below: events.count))
      state.held[identifier] = events
      let finished = events.isEmpty && state.finishDue.remove(identifier) != nil
      return (session, event.description, event.outcome, finished)
    }
    guard let (session, description, outcome, finished) = delivery else { return }
    session.delegate.backgroundSession(session, taskNamed: description, didFinishWith: outcome)
    state.withLock { Self.endInvalidation(of: identifier, in: &$0) }
    guard finished else { return }
    session.delegate.backgroundSessionDidFinishEvents(session)
    let (listings, running) = state.withLock { state in
      (
        state.listings.removeValue(forKey: identifier) ?? [],
        state.running.filter { $0.identifier == identifier }.map(\.upload.taskDescription)
      )
    }
    for listing in listings { listing.resume(returning: running) }
  }

  private func trustFailure(_ policy: ServerTrustPolicy, host: String) -> CourierError? {
    let rootTrusted =
      (policy.trustsSystemRoots && trustedBySystem)
      || certificateChain.last.map { policy.certificates.contains($0) } ?? false
    guard rootTrusted else {
      return CourierError(.tls, "The certificate of \(host) is not trusted by the policy's roots")
    }
    do {
      try policy.checkPins(host: host, chainDER: certificateChain)
    } catch {
      return error
    }
    return nil
  }
}

/// A session of a ``BackgroundSystemSimulator``.
final class SimulatedBackgroundSession: BackgroundSession {
  let identifier: String
  let process: Int
  let delegate: any BackgroundSessionDelegate
  private let system: BackgroundSystemSimulator?

  init(identifier: String, process: Int, delegate: any BackgroundSessionDelegate, system: BackgroundSystemSimulator) {
    self.identifier = identifier
    self.process = process
    self.delegate = delegate
    self.system = system
  }

  var isValid: Bool { system?.isValid(self) ?? false }

  func upload(_ upload: BackgroundUpload) throws {
    guard let system else { throw CourierError(.invalidRequest, "The simulator is gone") }
    try system.upload(upload, session: self)
  }

  func runningTaskDescriptions() async -> [String] {
    await system?.runningDescriptions(of: identifier) ?? []
  }

  func finishTasksAndInvalidate() {
    system?.invalidate(self)
  }
}

/// SplitMix64: a small seedable generator whose sequence is the same on every platform.
package struct SplitMix64: Sendable {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  package mutating func next(below bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }
}
