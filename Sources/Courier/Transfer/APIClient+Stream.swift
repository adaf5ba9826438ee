import Foundation
import HTTPTypes

/// A response whose body is read as it arrives (server-sent lines, JSON Lines, a large file): a ``APIResponse`` whose
/// value is the ``BodyStream``, as ``APIClient/stream(_:)`` returns it. Its `data` is empty; the bytes are in
/// ``APIResponse/body``.
///
/// ```swift
/// let stream = try await client.stream(Endpoint<Data>.get("/stream/lines?count=100"))
/// for try await event in stream.jsonLines(of: Event.self) { handle(event) }
/// ```
public typealias StreamedResponse = APIResponse<BodyStream>

extension APIResponse where Value == BodyStream {
  /// The body, chunk by chunk as the transport delivers it. Iterate it once.
  public var body: BodyStream { value }

  /// The body's lines, split at `\n` (a `\r` before it is dropped) and decoded as UTF-8, read as the consumer asks.
  ///
  /// Lines may span chunks; a last line without a final newline is still delivered. A line over 1 MiB throws
  /// ``CourierError/Kind-swift.struct/decoding``. Cancelling the task that reads cancels the transfer: with
  /// ``CourierError/Kind-swift.struct/cancelled`` when it was waiting for a line, or as the end of the stream when it
  /// was cancelled between two lines (the rule of every `AsyncThrowingStream`: check `Task.isCancelled` after the
  /// loop when a cut-short body must not pass for a whole one). Leaving the loop cancels the transfer when the stream
  /// is released, at once for one made in the `for` statement or held in a local.
  ///
  /// ```swift
  /// for try await line in try await client.stream(Endpoint<Data>.get("/log")).lines { print(line) }
  /// ```
  public var lines: AsyncThrowingStream<String, any Error> { body.lines }

  /// The body as JSON Lines (one JSON document per line; blank lines are skipped), each decoded with `decoder`.
  ///
  /// A line that does not decode throws ``CourierError/Kind-swift.struct/decoding`` naming the line number.
  public func jsonLines<Element: Decodable>(
    of type: Element.Type = Element.self,
    decoder: JSONDecoder = JSONDecoder()
  ) -> AsyncThrowingStream<Element, any Error> {
    body.jsonLines(of: type, decoder: decoder)
  }
}

extension APIClient {
  /// Sends `endpoint` and returns as soon as the response head has arrived, with the body to be read as a stream.
  ///
  /// The request goes through the interceptors like any other (auth, retry of failures before the head, logging),
  /// except the cache: a streamed response is neither served from nor written to it.
  /// The endpoint's accepted statuses apply: another status throws
  /// ``CourierError/Kind-swift.struct/unacceptableStatus`` with up to 1 MiB of the body. Download progress set with
  /// ``Endpoint/onDownloadProgress(_:)`` follows the reading of the body. Stopping the iteration, or cancelling the
  /// task that reads it, cancels the transfer.
  ///
  /// - Throws: ``CourierError`` and nothing else; errors while reading the body are ``CourierError``s too.
  public func stream<Value>(_ endpoint: Endpoint<Value>) async throws -> StreamedResponse {
    try await openStream(endpoint, progress: TransferReporters(endpoint))
  }

  /// ``stream(_:)`` with the progress reporters chosen by the caller.
  func openStream<Value>(_ endpoint: Endpoint<Value>, progress: TransferReporters?) async throws -> StreamedResponse {
    try await engine.perform(endpoint, progress: progress, .stream(endpoint, progress: progress))
  }
}

/// A response body whose errors are ``CourierError``s and whose end completes the download progress.
struct ErrorTypedBody: AsyncSequence, Sendable {
  typealias Element = Data
  let base: BodyStream
  let request: HTTPRequest
  let response: HTTPResponse
  let progress: TransferReporters?
  /// The call's idle timeout, which goes on holding while the caller reads the stream.
  let idle: TimeInterval?
  /// The client's clock, which the idle timeout waits on.
  let clock: any CallClock

  struct AsyncIterator: AsyncIteratorProtocol {
    var base: IdleLimitedChunks
    let request: HTTPRequest
    let response: HTTPResponse
    let progress: TransferReporters?

    mutating func next() async throws -> Data? {
      do {
        guard let chunk = try await base.next() else {
          progress?.download?.finish(complete: true)
          return nil
        }
        return chunk
      } catch {
        progress?.download?.finish(complete: false)
        var failure = CourierError(transportFailure: error, request: request).cancellationAware()
        if failure.response == nil { failure.response = response }
        throw failure
      }
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(
      base: IdleLimitedChunks(base.makeAsyncIterator(), idle: idle, clock: clock), request: request, response: response,
      progress: progress)
  }
}

/// A body's chunks, each of which must arrive within `idle` seconds of asking for it (when set): the idle limit of a
/// streamed body, read after its call returned, where the call's deadline no longer watches (``Deadline``).
struct IdleLimitedChunks {
  var base: BodyStream.AsyncIterator
  let idle: TimeInterval?
  let clock: any CallClock

  init(_ base: BodyStream.AsyncIterator, idle: TimeInterval?, clock: any CallClock) {
    self.base = base
    self.idle = idle
    self.clock = clock
  }

  mutating func next() async throws -> Data? {
    guard let idle else { return try await base.next() }
    // Handed to the task that waits for the next chunk; this awaits that task before it reads again.
    let box = IteratorBox(base)
    defer { base = box.iterator }
    return try await withThrowingTaskGroup(of: Data?.self) { group in
      group.addTask { try await box.next() }
      group.addTask { [clock] in
        try await clock.sleep(seconds: idle)
        throw CourierError(.timeout, Deadline.idleExpiry(idle))
      }
      defer { group.cancelAll() }
      return try await group.next() ?? nil
    }
  }
}
