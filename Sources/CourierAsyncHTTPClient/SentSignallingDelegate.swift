import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Receives one request's events from AsyncHTTPClient: the head written, the response head, body parts, the end.
final class SentSignallingDelegate: HTTPClientResponseDelegate, Sendable {

  private let source: ResponseBodyProducer.Source
  private let demand: BodyDemand
  private let requestSent: @Sendable () -> Void
  private let head = NIOLockedValueBox<CheckedContinuation<HTTPResponseHead, any Error>?>(nil)
  /// Runs when the response head arrives.
  private let headArrived: @Sendable () -> Void

  init(
    source: ResponseBodyProducer.Source, demand: BodyDemand, requestSent: @escaping @Sendable () -> Void,
    headArrived: @escaping @Sendable () -> Void
  ) {
    self.source = source
    self.demand = demand
    self.requestSent = requestSent
    self.headArrived = headArrived
  }

  func awaitHead(_ continuation: CheckedContinuation<HTTPResponseHead, any Error>) {
    head.withLockedValue { $0 = continuation }
  }

  /// Fails the call: before the response head, by throwing from `execute`; after it, by ending the body with the
  /// error.
  func fail(_ error: any Error) {
    if let waiting = takeHead() {
      waiting.resume(throwing: error)
    } else {
      source.finish(error)
    }
    demand.release()
  }

  private func takeHead() -> CheckedContinuation<HTTPResponseHead, any Error>? {
    head.withLockedValue { head in
      defer { head = nil }
      return head
    }
  }

  func didSendRequestHead(task: HTTPClient.Task<Void>, _ head: HTTPRequestHead) {
    requestSent()
  }

  func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
    headArrived()
    takeHead()?.resume(returning: head)
    return task.eventLoop.makeSucceededVoidFuture()
  }

  func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
    switch source.yield(buffer) {
    case .produceMore, .dropped:
      return task.eventLoop.makeSucceededVoidFuture()
    case .stopProducing:
      let promise = task.eventLoop.makePromise(of: Void.self)
      demand.park(promise)
      return promise.futureResult
    }
  }

  func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
    fail(error)
  }

  func didFinishRequest(task: HTTPClient.Task<Void>) throws {
    if let waiting = takeHead() {
      waiting.resume(throwing: HTTPClientError.remoteConnectionClosed)
    }
    source.finish()
  }
}
