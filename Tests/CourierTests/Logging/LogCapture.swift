import CourierTestSupport
import Foundation
import HTTPTypes
import Logging

@testable import Courier

/// Collects what a `Logger` logs, for assertions; no global `LoggingSystem.bootstrap`.
final class LogCapture: Sendable {
  /// One logged line.
  struct Entry: Sendable {
    var level: Logger.Level
    var message: String
    var metadata: [String: String]

    /// `level message [key=value ...]`, the form the secret checks search.
    var formatted: String {
      let pairs = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
      return "\(level) \(message) [\(pairs.joined(separator: " "))]"
    }
  }

  private let storage = Locked<[Entry]>([])

  var entries: [Entry] { storage.withLock { $0 } }
  var messages: [String] { entries.map(\.message) }
  /// Every line, formatted, joined by newlines.
  var text: String { entries.map(\.formatted).joined(separator: "\n") }

  func append(_ entry: Entry) {
    storage.withLock { $0.append(entry) }
  }

  /// The first entry whose message starts with `prefix`.
  func entry(startingWith prefix: String) -> Entry? {
    entries.first { $0.message.hasPrefix(prefix) }
  }

  /// A logger writing here, passing `level` and above.
  func logger(level: Logger.Level = .trace) -> Logger {
    var logger = Logger(label: "courier.tests") { _ in CapturingLogHandler(capture: self) }
    logger.logLevel = level
    return logger
  }
}

/// A `LogHandler` that appends every event to a ``LogCapture``.
struct CapturingLogHandler: LogHandler {
  let capture: LogCapture
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let merged = metadata.merging(event.metadata ?? [:]) { $1 }
    capture.append(
      LogCapture.Entry(
        level: event.level, message: event.message.description, metadata: merged.mapValues { "\($0)" }))
  }
}

/// A transport that records the bytes it was sent and answers with a fixed response.
struct LoggingTestTransport: HTTPTransport {
  let response: HTTPResponse
  let responseBody: @Sendable () -> BodyStream
  let received = Locked<[(HTTPRequest, Data)]>([])
  let failure: (any Error & Sendable)?

  init(
    status: HTTPResponse.Status = .ok,
    headers: HTTPFields = [:],
    body: String = "",
    failure: (any Error & Sendable)? = nil
  ) {
    self.init(response: HTTPResponse(status: status, headerFields: headers), failure: failure) {
      BodyStream(Data(body.utf8))
    }
  }

  init(
    response: HTTPResponse,
    failure: (any Error & Sendable)? = nil,
    body: @escaping @Sendable () -> BodyStream
  ) {
    self.response = response
    self.responseBody = body
    self.failure = failure
  }

  var bodies: [Data] { received.withLock { $0.map(\.1) } }

  func send(
    _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    let data = try await body?.collect() ?? Data()
    received.withLock { $0.append((request, data)) }
    if let failure { throw failure }
    return (response, responseBody())
  }
}

extension APIClient {
  /// A client at `https://api.example.com/v1` over `transport`, logging through `logging`.
  static func logged(_ transport: LoggingTestTransport, _ logging: LoggingInterceptor) -> APIClient {
    APIClient(baseURL: URL(string: "https://api.example.com/v1")) {
      $0.transport = transport
      $0.interceptors = [logging]
    }
  }
}

/// A stream of `chunks`, readable once, for checking that logging does not consume it.
func singlePassLogStream(_ chunks: [Data]) -> BodyStream {
  let stream = AsyncStream<Data> { continuation in
    for chunk in chunks { continuation.yield(chunk) }
    continuation.finish()
  }
  let length = chunks.reduce(0) { $0 + $1.count }
  return BodyStream(stream, length: Int64(length), isRepeatable: false)
}
