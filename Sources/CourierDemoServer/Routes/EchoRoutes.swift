#if canImport(Hummingbird)
import Foundation
import Hummingbird

/// `ANY /echo` and `ANY /echo/**`: answers with the request exactly as received (see ``EchoResponse``).
@available(macOS 14, iOS 17, tvOS 17, *)
struct EchoRoutes: Sendable {
  /// The largest body echo accepts.
  static let maxBodySize = 8 << 20
  /// The key `/admin/stats` counts echo requests under, after the method.
  static let pattern = "/echo/**"

  /// The server state, for counting.
  let state: DemoState

  /// Whether `path` is `/echo` or below it.
  static func handles(path: String) -> Bool {
    path == "/echo" || path.hasPrefix("/echo/")
  }

  /// Echoes `request`.
  func respond(to request: Request) async throws -> Response {
    await state.recordRequest("\(request.method.rawValue) \(Self.pattern)")
    var request = request
    let body = try await request.collectBody(upTo: Self.maxBodySize)
    let (path, rawQuery) = QueryString.split(target: request.head.path ?? request.uri.string)
    let query = QueryString(raw: rawQuery)
    let bytes = Array(body.readableBytesView)
    let echo = EchoResponse(
      method: request.method.rawValue,
      path: String(path),
      rawQuery: rawQuery,
      query: query.items.map { [$0.name, $0.value] },
      headers: Self.headers(of: request),
      body: Self.utf8Text(bytes),
      bodyBase64: Data(bytes).base64EncodedString(),
      bodyLength: bytes.count
    )
    return try JSONResponse.make(echo)
  }

  /// `bytes` as text when they are valid UTF-8 (checked by a lossless round trip), else `nil`.
  static func utf8Text(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.utf8.elementsEqual(bytes) ? text : nil
  }

  /// Every header in order; HTTP/1's `Host`, which HTTPTypes moves into the authority, comes first.
  static func headers(of request: Request) -> [[String]] {
    var headers: [[String]] = []
    if let authority = request.head.authority {
      headers.append(["Host", authority])
    }
    for field in request.headers {
      headers.append([field.name.rawName, field.value])
    }
    return headers
  }
}
#endif
