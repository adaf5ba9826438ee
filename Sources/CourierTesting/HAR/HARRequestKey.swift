import Courier
import Foundation
import HTTPTypes

/// What a replayed request is matched by: the method, the URL and the body, after redaction, with JSON bodies
/// compared by meaning.
struct HARRequestKey: Hashable, Sendable {
  var method: String
  var url: String
  /// Canonical JSON, or the raw bytes; `nil` for no (or an empty) body.
  var body: Data?

  /// The key of a recorded request.
  init(_ request: HTTPArchive.Request) {
    method = request.method.uppercased()
    url = request.url
    let data = request.postData.map { HARBodyCoding.decode(text: $0.text, encoding: $0.encoding) }
    body = Self.normalized(data)
  }

  /// The key of a live request, redacted as a recording of it would be.
  init(_ request: HTTPRequest, body data: Data?, redactor: LogRedactor) {
    method = request.method.rawValue.uppercased()
    url = redactor.url(of: request)
    guard let data, !data.isEmpty else {
      body = nil
      return
    }
    let contentType = request.headerFields[.contentType]
    let (text, encoding) = HARBodyCoding.encode(data, mimeType: contentType ?? "application/octet-stream") {
      redactor.body($0, contentType: contentType)
    }
    body = Self.normalized(HARBodyCoding.decode(text: text, encoding: encoding))
  }

  private static func normalized(_ data: Data?) -> Data? {
    guard let data, !data.isEmpty else { return nil }
    return JSONText.canonical(data) ?? data
  }

  /// `POST https://…/posts (body: {"title":"Hi"})`.
  var description: String {
    guard let body else { return "\(method) \(url)" }
    let text = String(data: body, encoding: .utf8).map { $0.count > 200 ? $0.prefix(200) + "…" : $0 }
    return "\(method) \(url) (body: \(text ?? "\(body.count) bytes"))"
  }
}
