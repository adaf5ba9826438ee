import Courier
import Foundation
import HTTPTypes

/// Sample mode: answers every call whose endpoint declares a `SampleResponse` with that sample, at once or after
/// a delay, without sending anything.
///
/// Samples are declared with the endpoints (`Endpoint.sample(_:)`, `EndpointConvertible.sample`), so a
/// preview, a demo build or a UI test runs the app's real networking code against them. The easiest way in is
/// ``Courier/APIClient/sampling(baseURL:timing:clock:stubs:_:)``; to add sample mode to a client you configure
/// yourself, put the interceptor last, closest to the transport, so authentication, retry and logging still run around
/// it:
///
/// ```swift
/// let client = APIClient(baseURL: url) {
///   $0.interceptors = [auth, RetryInterceptor(), SampleInterceptor(.delayed(seconds: 0.8))]
///   $0.transport = StubTransport()   // nothing reaches the network
/// }
/// ```
public struct SampleInterceptor: Interceptor {
  /// When a sample is given: at once, or after a delay that makes loading states visible.
  public struct Timing: Sendable, Hashable {
    /// The delay in seconds.
    public var delay: TimeInterval

    /// Answers at once.
    public static let immediate = Timing(delay: 0)

    /// Answers after `seconds`, on the interceptor's clock.
    public static func delayed(seconds: TimeInterval) -> Timing {
      Timing(delay: seconds)
    }
  }

  /// What happens to a call whose endpoint has no sample.
  public struct Missing: Sendable, Hashable {
    let passesThrough: Bool

    /// The call fails with a `CourierError` of kind `transport` that names the endpoint.
    public static let fail = Missing(passesThrough: false)
    /// The call goes on to the rest of the chain and the transport, e.g. a ``StubTransport``.
    public static let passThrough = Missing(passesThrough: true)
  }

  /// When samples are given.
  public let timing: Timing
  /// What happens to calls without a sample.
  public let missing: Missing
  private let clock: any CallClock

  /// Creates the interceptor.
  ///
  /// - Parameters:
  ///   - timing: `.immediate` (the default) or `.delayed(seconds:)`.
  ///   - clock: What delays wait on; a ``TestCallClock`` records them without waiting.
  ///   - missing: `.fail` (the default) or `.passThrough` for calls whose endpoint has no sample.
  public init(_ timing: Timing = .immediate, clock: (any CallClock)? = nil, missing: Missing = .fail) {
    self.timing = timing
    self.clock = clock ?? SystemCallClock()
    self.missing = missing
  }

  /// Answers with `context.sample`, or handles a call without one as ``missing`` says.
  public func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    guard let sample = context.sample else {
      if missing.passesThrough { return try await next(request, body, context) }
      throw CourierError(
        .transport,
        "\(request.method) \(request.path ?? "") has no sample response; declare one with .sample(...) on the endpoint",
        request: request)
    }
    if timing.delay > 0 {
      try await clock.sleep(seconds: timing.delay)
    }
    return (sample.response, BodyStream(try sample.loadBody()))
  }
}
