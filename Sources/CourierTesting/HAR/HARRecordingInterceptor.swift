import Courier
import Foundation
import HTTPTypes

/// Records every exchange that passes through it as a HAR 1.2 entry, with secrets redacted, and keeps the `.har`
/// file up to date after each one.
///
/// Record real traffic once, check the file in, and replay it in tests with ``HARReplayTransport``:
///
/// ```swift
/// let recorder = HARRecordingInterceptor(fileURL: fixtures.appendingPathComponent("checkout.har"))
/// let client = APIClient(baseURL: stagingURL) { $0.interceptors = [auth, recorder] }
/// _ = try await client.value(Endpoint<Cart>.get("/cart"))
/// _ = try await client.send(Endpoint<Order>.post("/orders", body: order).expect(.created))
/// // checkout.har now holds both exchanges; open it in a browser's network panel to look.
/// ```
///
/// Put it last among the interceptors, closest to the transport, so it records each attempt as it was sent, with
/// the credentials the auth interceptor added (redacted, see ``HARRedaction``). Failed attempts that got no response
/// are not recorded. A request body that is a single-use stream is not read; its entry says so.
public final class HARRecordingInterceptor: Interceptor {
  /// Where the archive is written after each exchange; `nil` keeps it in memory only.
  public let fileURL: URL?
  private let builder: HAREntryBuilder
  private let state: Locked<HTTPArchive>

  /// Creates a recorder.
  ///
  /// - Parameters:
  ///   - fileURL: The `.har` file to write after each exchange (its folder is created); `nil` to keep the archive in
  ///     memory only and write it yourself with ``write(to:)``.
  ///   - redaction: What to hide; by default what `LoggingInterceptor` hides.
  ///   - creator: The program named in the archive.
  public init(fileURL: URL?, redaction: HARRedaction = HARRedaction(), creator: HTTPArchive.Creator = .courier) {
    self.fileURL = fileURL
    builder = HAREntryBuilder(redactor: redaction.redactor)
    state = Locked(HTTPArchive(log: HTTPArchive.Log(creator: creator)))
  }

  /// The archive so far.
  public var archive: HTTPArchive {
    state.withLock { $0 }
  }

  /// Writes the archive so far to `url`.
  public func write(to url: URL) throws {
    try archive.write(to: url)
  }

  /// Passes the request on, reads the whole response body, records the exchange and returns the response.
  ///
  /// - Throws: What the rest of the chain throws, or `CourierError` of kind `transport` when the file
  ///   cannot be written.
  public func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    let started = Date()
    let start = ProcessInfo.processInfo.systemUptime
    let recordedBody = try await Self.record(body)
    let (response, responseBody) = try await next(request, body, context)
    let data = try await responseBody.collect()
    let milliseconds = ((ProcessInfo.processInfo.systemUptime - start) * 1000 * 1000).rounded() / 1000
    let entry = builder.entry(
      request: request, body: recordedBody, response: response, responseBody: data, started: started,
      milliseconds: milliseconds)
    try state.withLock { archive in
      archive.log.entries.append(entry)
      guard let fileURL else { return }
      do {
        try archive.write(to: fileURL)
      } catch {
        throw CourierError(
          .transport, "The HAR file \(fileURL.path) could not be written: \(error)", request: request,
          underlyingError: error)
      }
    }
    return (response, BodyStream(data))
  }

  /// The bytes of a body that can be read without disturbing the transfer.
  private static func record(_ body: BodyStream?) async throws -> RecordedRequestBody {
    guard let body else { return .none }
    if let data = body.bufferedData { return .data(data) }
    guard body.isRepeatable else { return .stream(length: body.length) }
    return .data(try await body.collect())
  }
}
