import Foundation
import HTTPTypes

/// A step between the client and the transport that may change the request, answer it, repeat it, or observe it.
///
/// Interceptors run in the order of ``APIClient/Configuration/interceptors``; each calls `next` to hand the request
/// on, and the last `next` is the transport. The recommended order, outermost first:
///
/// 1. authentication (``AuthInterceptor``) — attaches credentials and refreshes them once on 401, so every
///    retry below it already carries a valid token;
/// 2. retry (``RetryInterceptor``) — repeats transient failures; placed inside auth so a refresh is not retried
///    as if it were a network error, and outside the cache and limits so each attempt is counted and queued anew;
/// 3. cache — answers from storage before any network work;
/// 4. limits (``ConcurrencyLimitInterceptor``, ``DeduplicationInterceptor``) — hold only requests really going to
///    the network;
/// 5. logging (``LoggingInterceptor``) — closest to the transport, so it logs each attempt exactly as it is sent.
///
/// Default headers are applied before the chain, when the request is built.
///
/// Choose an interceptor for behaviour around the whole exchange; choose a transport to change how bytes move.
///
/// ```swift
/// struct RequestID: Interceptor {
///   func intercept(_ request: HTTPRequest, body: BodyStream?, context: CallContext, next: Next) async throws
///     -> (HTTPResponse, BodyStream)
///   {
///     var request = request
///     request.headerFields[.init("X-Request-ID")!] = UUID().uuidString
///     return try await next(request, body, context)
///   }
/// }
/// ```
public protocol Interceptor: Sendable {
  /// The rest of the chain.
  typealias Next = InterceptorNext

  /// Handles one request: call `next` to pass it on, or answer it yourself.
  func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream)
}

/// The rest of an interceptor chain; call it like a function.
public struct InterceptorNext: Sendable {
  let run: @Sendable (HTTPRequest, BodyStream?, CallContext) async throws -> (HTTPResponse, BodyStream)

  /// Creates a `next` from a closure, e.g. to test an interceptor alone.
  public init(
    _ run: @escaping @Sendable (HTTPRequest, BodyStream?, CallContext) async throws -> (HTTPResponse, BodyStream)
  ) {
    self.run = run
  }

  /// Hands the request to the rest of the chain.
  public func callAsFunction(
    _ request: HTTPRequest,
    _ body: BodyStream?,
    _ context: CallContext
  ) async throws -> (HTTPResponse, BodyStream) {
    try await run(request, body, context)
  }
}

/// An interceptor made from a closure.
///
/// ```swift
/// let stamp = ClosureInterceptor { request, body, context, next in
///   var request = request
///   request.headerFields[.init("X-Client")!] = "ios"
///   return try await next(request, body, context)
/// }
/// ```
public struct ClosureInterceptor: Interceptor {
  let handler:
    @Sendable (HTTPRequest, BodyStream?, CallContext, InterceptorNext) async throws -> (HTTPResponse, BodyStream)

  /// Creates an interceptor that runs `handler`.
  public init(
    _ handler:
      @escaping @Sendable (HTTPRequest, BodyStream?, CallContext, InterceptorNext) async throws -> (
        HTTPResponse, BodyStream
      )
  ) {
    self.handler = handler
  }

  /// Runs the closure.
  public func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    try await handler(request, body, context, next)
  }
}
