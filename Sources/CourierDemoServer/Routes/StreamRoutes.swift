#if canImport(Hummingbird)
import Foundation
import Hummingbird
import NIOCore

/// Streamed JSON Lines, for `APIClient.stream` and its line decoders.
///
/// - `GET /stream/lines?count=N&delay=MS&gate=KEY` → `Content-Type: application/x-ndjson`, chunked, `N` lines
///   (0 to 10 000, default 10) of `{"index":i,"text":"line i"}`, each written on its own, `MS` milliseconds apart
///   (default 0, at most 1 000). With `gate`, the first line is sent and the rest wait until
///   `POST /stream/release/KEY` (at most 10 s), which proves a client read the first line before the body ended.
/// - `POST /stream/release/{key}` → 204, and releases the gate `key`.
/// - `GET /stream/events?count=N&drop=K&retry=MS&delay=MS` → `Content-Type: text/event-stream`, server-sent events
///   `id: i` / `data: {"index":i,"text":"event i"}` for `i` from 0 to `N - 1` (0 to 10 000, default 5), resuming
///   after the request's `Last-Event-ID`, `MS` milliseconds apart (default 0, at most 1 000). Each connection starts
///   with a comment and, with `retry`, a `retry:` field. With `drop`, the connection is reset after `K` events (1 to
///   10 000), so a client must reconnect to get the rest. Once every event was sent, the answer is 204 No Content,
///   which tells a client to stop reconnecting.
@available(macOS 14, iOS 17, tvOS 17, *)
struct StreamRoutes: Sendable {
  /// The server state, for the gates.
  let state: DemoState

  /// The routes.
  var routes: [Route] {
    [
      Route(method: .get, pattern: "/stream/lines", handler: lines),
      Route(method: .post, pattern: "/stream/release/{key}", counted: false, handler: release),
      Route(method: .get, pattern: "/stream/events", handler: events),
    ]
  }

  /// The line stream.
  @Sendable func lines(_ request: Request, _ context: DemoContext) async throws -> Response {
    let query = QueryString(raw: request.uri.query)
    let count = try QueryParameter.int("count", in: query, range: 0...10_000) ?? 10
    let delay = try QueryParameter.milliseconds("delay", in: query, default: 0, cap: 1_000)
    let gate = query.first("gate")
    let state = self.state
    let body = ResponseBody { writer in
      for index in 0..<count {
        if index == 1, let gate { await state.waitForGate(gate, timeout: .seconds(10)) }
        if index > 0 { try await Pause.milliseconds(delay) }
        let line = #"{"index":\#(index),"text":"line \#(index)"}"# + "\n"
        try await writer.write(ByteBuffer(string: line))
      }
      try await writer.finish(nil)
    }
    return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: body)
  }

  /// Opens a gate.
  @Sendable func release(_ request: Request, _ context: DemoContext) async throws -> Response {
    let key = try PathParameter.key(in: context)
    await state.releaseGate(key)
    return Response(status: .noContent)
  }

  /// The event stream.
  @Sendable func events(_ request: Request, _ context: DemoContext) async throws -> Response {
    let query = QueryString(raw: request.uri.query)
    let count = try QueryParameter.int("count", in: query, range: 0...10_000) ?? 5
    let drop = try QueryParameter.int("drop", in: query, range: 1...10_000)
    let retry = try QueryParameter.int("retry", in: query, range: 0...60_000)
    let delay = try QueryParameter.milliseconds("delay", in: query, default: 0, cap: 1_000)
    let first: Int
    if let lastID = request.headers[.lastEventID] {
      guard let last = Int(lastID), last >= -1 else {
        throw APIError.invalidParameter("Last-Event-ID", "Last-Event-ID must be an event index, got '\(lastID)'")
      }
      first = last + 1
    } else {
      first = 0
    }
    guard first < count else { return Response(status: .noContent) }
    let channel = context.channel
    let body = ResponseBody { writer in
      var opening = ": events \(first) to \(count - 1)\n"
      if let retry { opening += "retry: \(retry)\n" }
      try await writer.write(ByteBuffer(string: opening + "\n"))
      for (sent, index) in (first..<count).enumerated() {
        if sent > 0 { try await Pause.milliseconds(delay) }
        if let drop, sent == drop {
          await ConnectionDrop.reset(channel, after: ConnectionDrop.deliveryWait)
          throw ConnectionDrop.Dropped()
        }
        let event = #"id: \#(index)"# + "\n" + #"data: {"index":\#(index),"text":"event \#(index)"}"# + "\n\n"
        try await writer.write(ByteBuffer(string: event))
      }
      try await writer.finish(nil)
    }
    return Response(
      status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
  }
}
#endif
