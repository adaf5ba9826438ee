import Courier
import Foundation
import HTTPTypes

/// A transport that answers only from stubs, records every request it receives, and never touches the network.
///
/// Give it stubs, hand it to a client, make calls, then assert on the results and on ``requests``:
///
/// ```swift
/// let transport = StubTransport(
///   .get("/users/:id").reply(.json(User(id: 1, name: "Ada"))),
///   .post("/posts").reply(.status(.serviceUnavailable), .json(post, status: .created))
/// )
/// let client = APIClient.testing(baseURL: URL(string: "https://api.example.test/v1")!, transport: transport)
///
/// let user = try await client.value(Endpoint<User>.get("/users/1"))
/// #expect(user.name == "Ada")
/// #expect(transport.requests.map(\.path) == ["/v1/users/1"])
/// ```
///
/// **Matching.** The most recently added stub that matches a request answers it, so a test can add a stub that
/// overrides a general one made in a fixture. A request that no stub matches fails with a `CourierError` of kind
/// `transport` whose detail lists the closest stubs and how the request differs from each
/// (``UnmatchedRequestError``); it is recorded too, in ``requests`` and ``unmatchedRequests``.
///
/// **Time.** Delays (``StubResponse/delayed(by:)``) wait on the `clock`: pass a ``TestCallClock`` to record them
/// without waiting. Cancelling the calling task ends a delay at once.
///
/// **Failures.** ``StubResponse/timeout``, ``StubResponse/noConnection`` and ``StubResponse/connectionLost`` throw
/// `CourierError`s of those kinds; ``StubResponse/urlError(_:)`` throws a `URLError` for the client to classify.
public final class StubTransport: HTTPTransport {
  struct Entry: Sendable {
    var stub: Stub
    var answered = 0
  }

  struct State: Sendable {
    var entries: [Entry] = []
    var requests: [RecordedRequest] = []
    var basePath: [String]?
  }

  /// What to do with a request, decided under the lock.
  enum Decision {
    case answer(StubResponse)
    case compute(@Sendable (RecordedRequest) async throws -> StubResponse, RecordedRequest)
    case fail(UnmatchedRequestError)
  }

  private let state: Locked<State>
  private let clock: any CallClock
  private let onUnmatched: (@Sendable (UnmatchedRequestError) -> Void)?

  /// Creates a transport answering from `stubs`.
  ///
  /// - Parameters:
  ///   - stubs: The stubs; a later stub wins over an earlier one that also matches.
  ///   - baseURL: The client's base URL, whose path relative stub paths are matched after.
  ///     ``Courier/APIClient/testing(baseURL:transport:_:)`` sets it for you when it is `nil`.
  ///   - clock: What delays wait on; the real clock by default, a ``TestCallClock`` to skip the waits.
  ///   - onUnmatched: Called with every unmatched request before it fails, e.g. to record a test issue:
  ///     `{ Issue.record("\($0)") }`.
  public init(
    _ stubs: Stub...,
    baseURL: URL? = nil,
    clock: (any CallClock)? = nil,
    onUnmatched: (@Sendable (UnmatchedRequestError) -> Void)? = nil
  ) {
    state = Locked(State(entries: stubs.map { Entry(stub: $0) }, basePath: baseURL.map(Self.basePath(of:))))
    self.clock = clock ?? SystemCallClock()
    self.onUnmatched = onUnmatched
  }

  /// Creates a transport answering from an array of stubs; see ``init(_:baseURL:clock:onUnmatched:)``.
  public convenience init(
    stubs: [Stub],
    baseURL: URL? = nil,
    clock: (any CallClock)? = nil,
    onUnmatched: (@Sendable (UnmatchedRequestError) -> Void)? = nil
  ) {
    self.init(baseURL: baseURL, clock: clock, onUnmatched: onUnmatched)
    add(stubs)
  }

  /// Adds stubs; they win over every stub added before them.
  public func add(_ stubs: Stub...) {
    add(stubs)
  }

  /// Adds an array of stubs; they win over every stub added before them.
  public func add(_ stubs: [Stub]) {
    state.withLock { $0.entries += stubs.map { Entry(stub: $0) } }
  }

  /// Removes every stub; requests fail until new stubs are added.
  public func removeAllStubs() {
    state.withLock { $0.entries.removeAll() }
  }

  /// Forgets the recorded requests and starts every stub's sequence of replies again.
  public func reset() {
    state.withLock { state in
      state.requests.removeAll()
      for index in state.entries.indices { state.entries[index].answered = 0 }
    }
  }

  /// Every request received, in order, matched or not.
  public var requests: [RecordedRequest] {
    state.withLock { $0.requests }
  }

  /// The requests no stub matched.
  public var unmatchedRequests: [RecordedRequest] {
    requests.filter { $0.stub == nil }
  }

  /// The requests `stub`'s method, path, query, header and body requirements match, whichever stub answered them.
  ///
  /// ```swift
  /// #expect(transport.requests(matching: .post("/posts")).count == 2)
  /// ```
  public func requests(matching stub: Stub) -> [RecordedRequest] {
    let (requests, basePath) = state.withLock { ($0.requests, $0.basePath ?? []) }
    return requests.filter { recorded in
      if case .matched = stub.matcher.evaluate(recorded.request, body: recorded.body, basePath: basePath) {
        return true
      }
      return false
    }
  }

  /// Records the request, finds the newest matching stub and gives its next reply, after the reply's delay.
  public func send(
    _ request: HTTPRequest,
    body: BodyStream?,
    options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    let data = try await body?.collect()
    let recorded = RecordedRequest(request: request, body: data, options: options)
    let reply: StubResponse
    switch decide(recorded) {
    case .answer(let response):
      reply = response
    case .compute(let responder, let matched):
      reply = try await responder(matched)
    case .fail(let failure):
      onUnmatched?(failure)
      throw CourierError(.transport, failure.description, request: request, underlyingError: failure)
    }
    if reply.delay > 0 {
      try await clock.sleep(seconds: reply.delay)
    }
    switch reply.outcome {
    case .failure(let makeError):
      throw makeError(request)
    case .response(let sample):
      return (sample.response, BodyStream(try sample.loadBody()))
    }
  }

  /// Sets the base path when none was given, for ``Courier/APIClient/testing(baseURL:transport:_:)``.
  func adoptBaseURL(_ url: URL?) {
    guard let url else { return }
    state.withLock { state in
      if state.basePath == nil { state.basePath = Self.basePath(of: url) }
    }
  }

  private func decide(_ request: RecordedRequest) -> Decision {
    state.withLock { state in
      var request = request
      var candidates: [(weight: Int, candidate: UnmatchedRequestError.Candidate)] = []
      for index in state.entries.indices.reversed() {
        let stub = state.entries[index].stub
        switch stub.matcher.evaluate(request.request, body: request.body, basePath: state.basePath ?? []) {
        case .matched(let parameters):
          request.pathParameters = parameters
          request.stub = stub.label
          state.requests.append(request)
          switch stub.responder {
          case .closure(let responder):
            return .compute(responder, request)
          case .sequence(let responses):
            let position = min(state.entries[index].answered, responses.count - 1)
            state.entries[index].answered += 1
            return .answer(responses[position])
          }
        case .differs(let differences):
          let weight = differences.reduce(0) { $0 + $1.weight }
          candidates.append((weight, .init(stub: stub.label, differences: differences.map(\.text))))
        }
      }
      state.requests.append(request)
      let closest = candidates.enumerated().sorted { ($0.element.weight, $0.offset) < ($1.element.weight, $1.offset) }
      return .fail(
        UnmatchedRequestError(
          request: request, candidates: closest.prefix(3).map(\.element.candidate), stubCount: state.entries.count))
    }
  }

  static func basePath(of url: URL) -> [String] {
    let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
    return PathPattern.split(components?.percentEncodedPath ?? "").map(\.percentDecoded)
  }
}
