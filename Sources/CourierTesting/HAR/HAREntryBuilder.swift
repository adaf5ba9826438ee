import Courier
import Foundation
import HTTPTypes

/// A request body as the recorder saw it.
enum RecordedRequestBody: Sendable {
  case none
  case data(Data)
  /// A single-use stream the recorder must not read, with its length when known.
  case stream(length: Int64?)
}

/// Turns one exchange into a HAR entry, hiding secrets with Courier's log redaction.
struct HAREntryBuilder: Sendable {
  let redactor: LogRedactor

  func entry(
    request: HTTPRequest,
    body: RecordedRequestBody,
    response: HTTPResponse,
    responseBody: Data,
    started: Date,
    milliseconds: Double
  ) -> HTTPArchive.Entry {
    HTTPArchive.Entry(
      startedDateTime: Self.timestamp(started),
      time: milliseconds,
      request: self.request(request, body: body),
      response: self.response(response, body: responseBody),
      timings: HTTPArchive.Timings(wait: milliseconds))
  }

  func request(_ request: HTTPRequest, body: RecordedRequestBody) -> HTTPArchive.Request {
    let url = redactor.url(of: request)
    let query = url.firstIndex(of: "?").map { RequestParts.queryItems(url[url.index(after: $0)...]) } ?? []
    var record = HTTPArchive.Request(
      method: request.method.rawValue,
      url: url,
      cookies: cookies(request.headerFields[values: .cookie], hidden: redactor.headers.contains(.cookie)),
      headers: headers(request.headerFields),
      queryString: query.map { HTTPArchive.NameValue(name: $0.name, value: $0.value ?? "") })
    let mimeType = request.headerFields[.contentType] ?? "application/octet-stream"
    switch body {
    case .none:
      break
    case .data(let data):
      let (text, encoding) = HARBodyCoding.encode(data, mimeType: mimeType) {
        redactor.body($0, contentType: request.headerFields[.contentType])
      }
      record.postData = HTTPArchive.PostData(mimeType: mimeType, text: text, encoding: encoding)
      record.bodySize = data.count
    case .stream(let length):
      record.postData = HTTPArchive.PostData(
        mimeType: mimeType, text: "", comment: "A single-use stream; its bytes were not recorded.")
      record.bodySize = length.map(Int.init) ?? -1
    }
    return record
  }

  func response(_ response: HTTPResponse, body: Data) -> HTTPArchive.Response {
    let mimeType = response.headerFields[.contentType] ?? ""
    let (text, encoding) = HARBodyCoding.encode(body, mimeType: mimeType) {
      redactor.body($0, contentType: response.headerFields[.contentType])
    }
    return HTTPArchive.Response(
      status: response.status.code,
      statusText: response.status.phrase,
      cookies: setCookies(response.headerFields[values: .setCookie]),
      headers: headers(response.headerFields),
      content: HTTPArchive.Content(size: body.count, mimeType: mimeType, text: text, encoding: encoding),
      redirectURL: response.headerFields[.location].map(redactedLocation) ?? "",
      bodySize: body.count)
  }

  /// The fields with hidden values redacted, and hidden query values in the URLs of `Location` and
  /// `Content-Location`.
  private func headers(_ fields: HTTPFields) -> [HTTPArchive.NameValue] {
    fields.map { field in
      let isURL = field.name == .location || field.name == .contentLocation
      let value = isURL ? redactedLocation(redactor.value(of: field)) : redactor.value(of: field)
      return HTTPArchive.NameValue(name: field.name.rawName, value: value)
    }
  }

  /// `a=1; b=2` as cookies, the values hidden when the `Cookie` header is.
  private func cookies(_ values: [String], hidden: Bool) -> [HTTPArchive.Cookie] {
    values.flatMap { $0.split(separator: ";") }.compactMap { pair in
      let parts = pair.split(separator: "=", maxSplits: 1)
      guard let name = parts.first?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { return nil }
      let value = parts.count == 2 ? String(parts[1]) : ""
      return HTTPArchive.Cookie(name: name, value: hidden ? redactor.placeholder : value)
    }
  }

  /// Each `Set-Cookie` as a cookie with its attributes, the value hidden when the `Set-Cookie` header is.
  private func setCookies(_ values: [String]) -> [HTTPArchive.Cookie] {
    let hidden = redactor.headers.contains(.setCookie)
    return values.compactMap { value in
      let parts = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard var cookie = cookies([parts.first ?? ""], hidden: hidden).first else { return nil }
      for attribute in parts.dropFirst() {
        let pair = attribute.split(separator: "=", maxSplits: 1).map(String.init)
        switch pair.first?.lowercased() {
        case "path": cookie.path = pair.count == 2 ? pair[1] : nil
        case "domain": cookie.domain = pair.count == 2 ? pair[1] : nil
        case "httponly": cookie.httpOnly = true
        case "secure": cookie.secure = true
        default: break
        }
      }
      return cookie
    }
  }

  /// A `Location` with the values of hidden query items replaced.
  private func redactedLocation(_ location: String) -> String {
    guard let question = location.firstIndex(of: "?") else { return location }
    let query = location[location.index(after: question)...]
    return location[...question] + redactor.urlEncoded(query, hiding: redactor.queryKeys)
  }

  /// ISO 8601 with milliseconds, in UTC.
  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: date)
  }
}
