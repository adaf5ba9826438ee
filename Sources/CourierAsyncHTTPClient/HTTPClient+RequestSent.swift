import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

extension HTTPClient {
  /// Executes a request whose body (if any) is already in memory, calling `requestSent` once the request head has
  /// been written to a connection, and returns as soon as the response head has arrived; the response body streams
  /// from the connection with backpressure, as with `execute(_:deadline:)`.
  ///
  /// AsyncHTTPClient's async API reports nothing between queueing a request and its response head when there is no
  /// body to pull, so a call that must know when its request went out (Courier's `started` event, `onRequestStarted`)
  /// runs through the delegate API, whose `didSendRequestHead` is that moment. A refused connection, an unknown host
  /// or a failed TLS handshake fails the call without `requestSent` having run.
  func execute(
    _ request: HTTPClientRequest,
    buffered body: ByteBuffer?,
    deadline: NIODeadline,
    requestSent: @escaping @Sendable () -> Void
  ) async throws -> HTTPClientResponse {
    var delegateRequest = try HTTPClient.Request(
      url: request.url, method: request.method, headers: request.headers, body: body.map { .byteBuffer($0) })
    delegateRequest.tlsConfiguration = request.tlsConfiguration
    let demand = BodyDemand()
    let made = ResponseBodyProducer.makeSequence(
      backPressureStrategy: .init(lowWatermark: 2, highWatermark: 8), finishOnDeinit: false, delegate: demand)
    // The delegate API's deadline would also cover the body; as with `execute(_:deadline:)`, this one ends when the
    // response head arrives (which may happen before the timer is even scheduled).
    let expiry = HeadExpiry()
    let delegate = SentSignallingDelegate(
      source: made.source, demand: demand, requestSent: requestSent, headArrived: expiry.headArrived)
    let head = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        delegate.awaitHead(continuation)
        let task = self.execute(request: delegateRequest, delegate: delegate)
        expiry.schedule(
          task.eventLoop.scheduleTask(deadline: deadline) { task.fail(reason: HTTPClientError.deadlineExceeded) })
        task.futureResult.whenComplete { result in
          expiry.headArrived()
          if case .failure(let error) = result { delegate.fail(error) }
        }
        demand.attach(task)
      }
    } onCancel: {
      demand.cancel()
    }
    return HTTPClientResponse(
      version: head.version, status: head.status, headers: head.headers, body: .stream(made.sequence))
  }
}
