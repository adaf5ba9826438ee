import Courier
import Foundation
import HTTPTypes

/// A transport that answers from a HAR recording, matching each request by method, URL and body.
///
/// ```swift
/// let replay = try HARReplayTransport(contentsOf: Bundle.module.url(forResource: "checkout", withExtension: "har")!)
/// let client = APIClient(baseURL: stagingURL) { $0.transport = replay }
/// let cart = try await client.value(Endpoint<Cart>.get("/cart"))   // the recorded answer, no network
/// ```
///
/// Requests are compared after the same redaction the recording had (pass the same ``HARRedaction``), so a
/// recorded `"password":"<redacted>"` matches the real password, and JSON bodies are compared by meaning, not key
/// order. Headers are not compared, and entries without a response (status 0, as browsers write failed requests)
/// are left out. When several entries share a request, they are given in recorded order and the
/// last one repeats, so a recorded `POST /posts` that answered 201 twice answers 201 twice again.
///
/// In ``Mode-swift.struct/strict`` mode (the default) a request that is not in the recording fails with a
/// `CourierError` of kind `transport` naming the closest recorded requests; with
/// ``Mode-swift.struct/fallback(to:)`` it goes to another transport instead.
public final class HARReplayTransport: HTTPTransport {
  /// What happens to a request the recording does not have.
  public struct Mode: Sendable {
    let fallback: (any HTTPTransport)?

    /// The request fails, naming the closest recorded requests.
    public static let strict = Mode(fallback: nil)

    /// The request goes to `transport`, e.g. a ``StubTransport`` or, to record what is missing, a real one.
    public static func fallback(to transport: any HTTPTransport) -> Mode {
      Mode(fallback: transport)
    }
  }

  struct Replay: Sendable {
    var response: HTTPResponse
    var body: Data
  }

  /// The archive being replayed.
  public let archive: HTTPArchive
  /// What happens to requests the recording does not have.
  public let mode: Mode
  private let replays: [HARRequestKey: [Replay]]
  private let redactor: LogRedactor
  private let state = Locked<(served: [HARRequestKey: Int], unmatched: [RecordedRequest])>(([:], []))

  /// Creates a transport replaying `archive`.
  public init(archive: HTTPArchive, mode: Mode = .strict, redaction: HARRedaction = HARRedaction()) {
    self.archive = archive
    self.mode = mode
    redactor = redaction.redactor
    var replays: [HARRequestKey: [Replay]] = [:]
    for entry in archive.log.entries where (100...999).contains(entry.response.status) {
      replays[HARRequestKey(entry.request), default: []].append(Self.replay(of: entry.response))
    }
    self.replays = replays
  }

  /// Creates a transport replaying the `.har` file at `url`.
  public convenience init(contentsOf url: URL, mode: Mode = .strict, redaction: HARRedaction = HARRedaction()) throws {
    self.init(archive: try HTTPArchive(contentsOf: url), mode: mode, redaction: redaction)
  }

  /// The requests the recording did not have, in order.
  public var unmatchedRequests: [RecordedRequest] {
    state.withLock { $0.unmatched }
  }

  /// Answers with the next recorded response for the request, or handles it as ``mode`` says.
  public func send(
    _ request: HTTPRequest,
    body: BodyStream?,
    options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    let data = try await body?.collect()
    let key = HARRequestKey(request, body: data, redactor: redactor)
    let replay: Replay? = state.withLock { state in
      guard let candidates = replays[key] else {
        state.unmatched.append(RecordedRequest(request: request, body: data, options: options))
        return nil
      }
      let served = state.served[key, default: 0]
      state.served[key] = served + 1
      return candidates[min(served, candidates.count - 1)]
    }
    if let replay {
      return (replay.response, BodyStream(replay.body))
    }
    if let fallback = mode.fallback {
      return try await fallback.send(request, body: data.map { BodyStream($0) }, options: options)
    }
    throw CourierError(.transport, mismatch(key), request: request)
  }

  /// The failure message: the request and up to three recorded requests, closest first.
  private func mismatch(_ key: HARRequestKey) -> String {
    let path = { (url: String) in url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url }
    let ranked = replays.keys.map { recorded -> (score: Int, text: String) in
      var differences: [String] = []
      if recorded.method != key.method { differences.append("the method") }
      if recorded.url != key.url {
        differences.append(path(recorded.url) == path(key.url) ? "the query" : "the URL")
      }
      if recorded.body != key.body { differences.append("the body") }
      let score =
        (recorded.method != key.method ? 1 : 0) + (path(recorded.url) != path(key.url) ? 4 : 0)
        + (recorded.url != key.url ? 1 : 0) + (recorded.body != key.body ? 1 : 0)
      return (score, "\(recorded.description) — differs in \(differences.joined(separator: ", "))")
    }.sorted { ($0.score, $0.text) < ($1.score, $1.text) }
    var lines = ["The HAR recording has no entry for \(key.description)"]
    if ranked.isEmpty {
      lines.append("The recording has no entries.")
    } else {
      lines.append("The closest recorded requests:")
      lines += ranked.prefix(3).enumerated().map { "  \($0.offset + 1). \($0.element.text)" }
    }
    return lines.joined(separator: "\n")
  }

  /// The response an entry recorded, without the headers that described the original transfer.
  private static func replay(of response: HTTPArchive.Response) -> Replay {
    var fields = HTTPFields()
    let transferHeaders: Set<HTTPField.Name> = [.contentLength, .contentEncoding, .transferEncoding]
    for header in response.headers {
      guard let name = HTTPField.Name(header.name), !transferHeaders.contains(name) else { continue }
      fields.append(HTTPField(name: name, value: header.value))
    }
    let status = HTTPResponse.Status(code: response.status, reasonPhrase: response.statusText)
    let body = HARBodyCoding.decode(text: response.content.text, encoding: response.content.encoding)
    return Replay(response: HTTPResponse(status: status, headerFields: fields), body: body)
  }
}
