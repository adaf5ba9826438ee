import HTTPTypes

/// The innermost interceptor of a call with callbacks: runs `onStart` once, when the request first goes to the
/// transport, and waits for it so the callbacks keep their order.
struct TransportStartProbe: Interceptor {
  let onStart: @Sendable () async -> Void
  private let fired = Locked(false)

  init(onStart: @escaping @Sendable () async -> Void) {
    self.onStart = onStart
  }

  func intercept(
    _ request: HTTPRequest,
    body: HTTPBody?,
    context: RequestContext,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    let isFirst = fired.withLock { fired in
      defer { fired = true }
      return !fired
    }
    if isFirst { await onStart() }
    return try await next(request, body, context)
  }
}
