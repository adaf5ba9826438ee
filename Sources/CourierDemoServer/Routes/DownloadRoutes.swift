#if canImport(Hummingbird)
import Foundation
import Hummingbird

/// Deterministic downloads for streaming, progress and resume tests.
///
/// - `GET|HEAD /download/{bytes}` (0 to 8 GiB; query ``DownloadOptions``: `etag`, `rate`) → the ``DownloadPattern``
///   body with `Content-Type: application/octet-stream`, `Content-Length`, `ETag: "dl-<bytes>"` (or `"<etag>"`),
///   `Accept-Ranges: bytes` and a fixed `Last-Modified`. A single `Range` (`bytes=a-b`, `a-`, `-n`) on `GET` → 206
///   with `Content-Range: bytes a-b/<bytes>`; one that cannot be satisfied → 416 with `Content-Range: bytes */<bytes>`.
///   `If-Range` with anything but the current (strong) ETag or the exact `Last-Modified` → 200 with the whole body.
///   `rate=N` sends at most N bytes a second (see ``DownloadBody/writeSize``).
/// - `GET|HEAD /download/{bytes}/drop?key=K&after=N` → the same, except that the first `GET` with key `K` sends `N`
///   bytes of its body (fewer than the body has), waits 100 ms for them to arrive, then resets the connection (TCP
///   RST; URLSession on Linux reports `URLError.networkConnectionLost`). `HEAD` and later requests with `K` are
///   answered normally (206 for a `Range`). A client that reads very slowly may get fewer than N bytes: what is
///   still queued at the reset is lost.
/// - `GET /download/sha256/{bytes}` → `{"bytes": N, "sha256": "<hex>"}` for the whole body of `/download/{bytes}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DownloadRoutes: Sendable {
  /// The `Last-Modified` of every download: Mon, 01 Jan 2024 00:00:00 GMT.
  static let lastModified = Date(timeIntervalSince1970: 1_704_067_200)

  /// The server state, for the drop keys.
  let state: DemoState

  /// The routes.
  var routes: [Route] {
    [
      Route(method: .get, pattern: "/download/{bytes}", handler: download),
      Route(method: .get, pattern: "/download/{bytes}/drop", handler: drop),
      Route(method: .get, pattern: "/download/sha256/{bytes}", handler: digest),
    ]
  }

  /// The body, or the part of it the `Range` asks for.
  @Sendable func download(_ request: Request, _ context: DemoContext) async throws -> Response {
    let options = try DownloadOptions(QueryString(raw: request.uri.query), context: context)
    let selection = Self.selection(for: request, options: options)
    guard selection != .unsatisfiable else {
      return Self.unsatisfiable(options)
    }
    let body = DownloadBody(range: Self.bytes(selection, options), rate: options.rate, channel: context.channel)
    return Self.response(selection, options: options, body: body)
  }

  /// As ``download(_:_:)``, but the first `GET` per `key` resets the connection after `after` body bytes.
  @Sendable func drop(_ request: Request, _ context: DemoContext) async throws -> Response {
    let query = QueryString(raw: request.uri.query)
    let options = try DownloadOptions(query, context: context)
    let dropOptions = try DropOptions(query)
    let selection = Self.selection(for: request, options: options)
    guard selection != .unsatisfiable else {
      return Self.unsatisfiable(options)
    }
    var body = DownloadBody(range: Self.bytes(selection, options), rate: options.rate, channel: context.channel)
    if request.method == .get, await !state.hasDroppedDownload(key: dropOptions.key) {
      guard dropOptions.after < body.length else {
        throw APIError.invalidParameter(
          "after",
          "Parameter 'after' must be less than the \(body.length) bytes this response sends, got \(dropOptions.after)"
        )
      }
      if await state.claimDownloadDrop(key: dropOptions.key) {
        body.dropAfter = dropOptions.after
      }
    }
    return Self.response(selection, options: options, body: body)
  }

  /// `{"bytes": N, "sha256": "<hex>"}`.
  @Sendable func digest(_ request: Request, _ context: DemoContext) async throws -> Response {
    let length = try DownloadOptions.length(in: context)
    let sha256 = await DownloadDigests.shared.digest(length: length)
    return try JSONResponse.make(DownloadDigest(bytes: length, sha256: sha256))
  }

  // MARK: Helpers

  /// What to send: the `Range` of a `GET` (other methods ignore it, RFC 9110 §14.2), unless `If-Range` says the
  /// client's copy is stale.
  static func selection(for request: Request, options: DownloadOptions) -> ByteRange {
    let ranges = request.method == .get ? request.headers[values: .range] : []
    guard !ranges.isEmpty else { return .full }
    let current = IfRange.allowsRange(
      request.headers[values: .ifRange],
      entityTag: options.entityTag,
      lastModified: lastModified
    )
    return current ? ByteRange.resolve(ranges, length: options.length) : .full
  }

  /// The bytes `selection` covers; `nil` for none.
  static func bytes(_ selection: ByteRange, _ options: DownloadOptions) -> ClosedRange<Int64>? {
    switch selection {
    case .partial(let range):
      return range
    case .full where options.length > 0:
      return 0...(options.length - 1)
    case .full, .unsatisfiable:
      return nil
    }
  }

  /// The headers every download answer carries.
  static func commonHeaders(_ options: DownloadOptions) -> HTTPFields {
    [
      .eTag: options.entityTag.description,
      .acceptRanges: "bytes",
      .lastModified: HTTPDate.format(lastModified),
    ]
  }

  /// 200 or 206 with `body`.
  static func response(_ selection: ByteRange, options: DownloadOptions, body: DownloadBody) -> Response {
    var headers = commonHeaders(options)
    headers[.contentType] = "application/octet-stream"
    var status = HTTPResponse.Status.ok
    if case .partial(let range) = selection {
      status = .partialContent
      headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(options.length)"
    }
    return Response(status: status, headers: headers, body: body.responseBody())
  }

  /// 416 `range_not_satisfiable` with `Content-Range: bytes */<length>`.
  static func unsatisfiable(_ options: DownloadOptions) -> Response {
    var headers = commonHeaders(options)
    headers[.contentRange] = "bytes */\(options.length)"
    return JSONResponse.error(
      APIError(
        status: .rangeNotSatisfiable,
        code: "range_not_satisfiable",
        message: "The requested range is outside the \(options.length)-byte body",
        headers: headers
      )
    )
  }
}
#endif
