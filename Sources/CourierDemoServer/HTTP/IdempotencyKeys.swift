#if canImport(Hummingbird)
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The demo API's `Idempotency-Key` handling for its unsafe endpoints (draft-ietf-httpapi-idempotency-key-header):
/// the first request with a key is applied and its answer stored (unless it is a 5xx, which frees the key for a
/// retry); a repeat with the same payload gets the stored answer again (`Idempotent-Replayed: true`) without being
/// applied; a repeat while the first is in flight gets 409; the same key with another payload (method, path or body)
/// gets 422. Keys are kept 24 hours. With `X-Demo-Drop-Answer`, the first request is applied and its answer stored, and
/// the connection is reset instead.
@available(macOS 14, iOS 17, tvOS 17, *)
actor IdempotencyKeys {
  /// A stored answer.
  struct Answer: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: ByteBuffer
  }

  private enum Entry {
    case inFlight(fingerprint: String, since: Date)
    case completed(fingerprint: String, answer: Answer, at: Date)

    var fingerprint: String {
      switch self {
      case .inFlight(let fingerprint, _), .completed(let fingerprint, _, _): fingerprint
      }
    }

    var date: Date {
      switch self {
      case .inFlight(_, let date), .completed(_, _, let date): date
      }
    }
  }

  /// What to do with a request carrying a key.
  enum Claim: Sendable {
    /// Apply it; then ``complete(_:with:)`` or ``release(_:)``.
    case apply
    /// Answer with the stored answer.
    case replay(Answer)
    /// The first request with this key is still being applied.
    case inFlight
    /// The key was used with another payload.
    case mismatch
  }

  /// How long keys are kept.
  static let retention: TimeInterval = 24 * 3600
  /// The header.
  static let header = HTTPField.Name("Idempotency-Key")!
  /// Marks a replayed answer.
  static let replayed = HTTPField.Name("Idempotent-Replayed")!
  /// Asks the server to apply the request and store its answer, then reset the connection instead of answering: the
  /// answer is lost on the way back, as on a flaky network (for tests of clients that resend with the same key).
  static let dropAnswer = HTTPField.Name("X-Demo-Drop-Answer")!

  private var entries: [String: Entry] = [:]

  /// Claims `key` for a request with `fingerprint`.
  func claim(_ key: String, fingerprint: String, now: Date = Date()) -> Claim {
    entries = entries.filter { now.timeIntervalSince($0.value.date) < Self.retention }
    guard let entry = entries[key] else {
      entries[key] = .inFlight(fingerprint: fingerprint, since: now)
      return .apply
    }
    guard entry.fingerprint == fingerprint else { return .mismatch }
    switch entry {
    case .inFlight: return .inFlight
    case .completed(_, let answer, _): return .replay(answer)
    }
  }

  /// Stores the answer of the request that claimed `key`.
  func complete(_ key: String, with answer: Answer, now: Date = Date()) {
    guard case .inFlight(let fingerprint, _)? = entries[key] else { return }
    entries[key] = .completed(fingerprint: fingerprint, answer: answer, at: now)
  }

  /// Forgets `key`: its request failed before it was applied, so a retry may apply it.
  func release(_ key: String) {
    if case .inFlight? = entries[key] { entries[key] = nil }
  }

  /// Forgets every key (`POST /admin/reset`).
  func reset() {
    entries = [:]
  }

  /// `handler` with the key's rules in front of it, for a route whose method is not safe.
  nonisolated func guarding(_ handler: @escaping Route.Handler) -> Route.Handler {
    { request, context in
      guard let field = request.headers[Self.header] else { return try await handler(request, context) }
      guard let key = Self.parse(field) else {
        throw APIError.invalidParameter(
          "Idempotency-Key", "Idempotency-Key must be a Structured Field string (\"…\"), got '\(field)'")
      }
      var request = request
      // The largest body a route takes: a post's picture.
      let body = try await request.collectBody(upTo: max(JSONBody.maxSize, PostRoutes.maxImageBytes))
      let fingerprint = Self.fingerprint(request, body: body)
      switch await self.claim(key, fingerprint: fingerprint) {
      case .mismatch:
        throw APIError(
          status: .unprocessableContent, code: "idempotency_key_reused",
          message: "Idempotency-Key \(key) was already used with another request")
      case .inFlight:
        throw APIError(
          status: .conflict, code: "idempotency_key_in_flight",
          message: "A request with Idempotency-Key \(key) is still being processed")
      case .replay(let answer):
        var headers = answer.headers
        headers[Self.replayed] = "true"
        return Response(status: answer.status, headers: headers, body: ResponseBody(byteBuffer: answer.body))
      case .apply:
        do {
          let response = try await handler(request, context)
          let answer = try await Self.collect(response)
          // A 5xx says the request was not applied: the key is free for a retry, which applies it then.
          guard answer.status.code < 500 else {
            await self.release(key)
            return Response(status: answer.status, headers: answer.headers, body: ResponseBody(byteBuffer: answer.body))
          }
          await self.complete(key, with: answer)
          if request.headers[Self.dropAnswer] != nil {
            await ConnectionDrop.reset(context.channel)
            return Response(status: .internalServerError, body: ResponseBody { _ in throw ConnectionDrop.Dropped() })
          }
          return Response(status: answer.status, headers: answer.headers, body: ResponseBody(byteBuffer: answer.body))
        } catch {
          await self.release(key)
          throw error
        }
      }
    }
  }

  /// The key of an `Idempotency-Key` field: a Structured Field string, its quotes and escapes removed (a bare token
  /// of visible ASCII, as older clients send, is taken as it is).
  static func parse(_ field: String) -> String? {
    let value = field.trimmingCharacters(in: .whitespaces)
    guard value.hasPrefix("\"") else {
      let visible = value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" }
      return visible && !value.isEmpty ? value : nil
    }
    guard value.count >= 3, value.hasSuffix("\"") else { return nil }
    var key = ""
    var escaped = false
    for character in value.dropFirst().dropLast() {
      if escaped {
        guard character == "\"" || character == "\\" else { return nil }
        key.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" || !character.isASCII || character.asciiValue! < 0x20 || character.asciiValue! > 0x7E
      {
        return nil
      } else {
        key.append(character)
      }
    }
    return escaped || key.isEmpty ? nil : key
  }

  /// What a repeat must match: the method, the path and query, and a digest of the body.
  static func fingerprint(_ request: Request, body: ByteBuffer) -> String {
    let digest = SHA256.hash(data: Data(body.readableBytesView)).map { String(format: "%02x", $0) }.joined()
    return "\(request.method.rawValue) \(request.uri.description) \(digest)"
  }

  /// The response with its body read whole, to store and send.
  static func collect(_ response: Response) async throws -> Answer {
    let writer = CollectingWriter()
    try await response.body.write(writer.writer)
    return Answer(status: response.status, headers: response.headers, body: await writer.buffer.bytes)
  }
}

/// A body writer that keeps what is written.
@available(macOS 14, iOS 17, tvOS 17, *)
private struct CollectingWriter {
  actor Buffer {
    var bytes = ByteBuffer()
    func append(_ buffer: ByteBuffer) {
      var buffer = buffer
      bytes.writeBuffer(&buffer)
    }
  }

  let buffer = Buffer()

  var writer: any ResponseBodyWriter { Writer(buffer: buffer) }

  struct Writer: ResponseBodyWriter {
    let buffer: Buffer
    mutating func write(_ chunk: ByteBuffer) async throws { await buffer.append(chunk) }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
  }
}
#endif
