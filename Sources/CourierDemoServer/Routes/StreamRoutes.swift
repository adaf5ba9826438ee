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
struct StreamRoutes: Sendable {
  /// The server state, for the gates.
  let state: DemoState

  /// The routes.
  var routes: [Route] {
    [
      Route(method: .get, pattern: "/stream/lines", handler: lines),
      Route(method: .post, pattern: "/stream/release/{key}", counted: false, handler: release),
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
}
