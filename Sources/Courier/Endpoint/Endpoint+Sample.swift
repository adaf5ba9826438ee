import Foundation
import HTTPTypes

/// A canned response an endpoint carries for previews, demos and tests: a status, headers and a body.
///
/// Declare the sample next to the endpoint, so every screen that calls it can run without a server:
///
/// ```swift
/// extension Endpoint where Value == User {
///   static func user(id: Int) -> Endpoint {
///     .get("/users/\(id)").sample(.json(User(id: id, name: "Ada Lovelace")))
///   }
/// }
///
/// enum MovieAPI: EndpointConvertible {
///   case popular
///   var path: String { "/movies/popular" }
///   var sample: SampleResponse? { .file(Bundle.main.url(forResource: "popular", withExtension: "json")!) }
/// }
/// ```
///
/// Courier itself never answers from a sample. `SampleInterceptor` in CourierTesting does, when a client runs in
/// sample mode (`APIClient.sampling(baseURL:)`), at once or after a delay. The body is made only then, so a fixture
/// file is read, or a value encoded, only when a call needs it.
public struct SampleResponse: Sendable {
  /// The status; `200 OK` by default.
  public var status: HTTPResponse.Status
  /// The header fields.
  public var headerFields: HTTPFields
  private let makeBody: @Sendable () throws -> Data

  /// A sample with a body of bytes.
  ///
  /// ```swift
  /// SampleResponse(status: .created, headerFields: [.location: "/posts/7"], body: Data(#"{"id":7}"#.utf8))
  /// ```
  public init(status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], body: Data = Data()) {
    self.init(status: status, headerFields: headerFields) { body }
  }

  /// A sample whose body is made when it is needed; the closure may throw, failing the call that asked for it.
  public init(
    status: HTTPResponse.Status = .ok,
    headerFields: HTTPFields = [:],
    body: @escaping @Sendable () throws -> Data
  ) {
    self.status = status
    self.headerFields = headerFields
    makeBody = body
  }

  /// A JSON body encoded from `value` (with `encoder`, else ISO 8601 dates like the client's default decoder), and
  /// `Content-Type: application/json` unless `headerFields` names another.
  ///
  /// ```swift
  /// .sample(.json([Product(id: 1, name: "Lamp")]))
  /// .sample(.json(APIErrorBody(error: "Sold out"), status: .conflict))
  /// ```
  public static func json(
    _ value: some Encodable & Sendable,
    status: HTTPResponse.Status = .ok,
    headerFields: HTTPFields = [:],
    encoder: JSONEncoder? = nil
  ) -> SampleResponse {
    SampleResponse(status: status, headerFields: headerFields.adding(.contentType, "application/json")) {
      let jsonEncoder = encoder ?? JSONEncoder()
      if encoder == nil { jsonEncoder.dateEncodingStrategy = .iso8601 }
      do {
        return try jsonEncoder.encode(value)
      } catch {
        throw CourierError(.encoding, "The sample body could not be encoded: \(error)", underlyingError: error)
      }
    }
  }

  /// A UTF-8 text body, with `Content-Type: text/plain; charset=utf-8` unless `headerFields` names another.
  public static func text(
    _ text: String,
    status: HTTPResponse.Status = .ok,
    headerFields: HTTPFields = [:]
  ) -> SampleResponse {
    SampleResponse(
      status: status, headerFields: headerFields.adding(.contentType, "text/plain; charset=utf-8"),
      body: Data(text.utf8))
  }

  /// The contents of a fixture file, read when the sample is used. `Content-Type` is taken from the file's extension
  /// (`json`, `txt`, `html`, `xml`, `png`, `jpg`, `gif`, `pdf`; anything else is `application/octet-stream`) unless
  /// `headerFields` names one.
  ///
  /// ```swift
  /// .sample(.file(Bundle.module.url(forResource: "products-page-1", withExtension: "json")!))
  /// ```
  public static func file(
    _ url: URL,
    status: HTTPResponse.Status = .ok,
    headerFields: HTTPFields = [:]
  ) -> SampleResponse {
    SampleResponse(status: status, headerFields: headerFields.adding(.contentType, mediaType(of: url))) {
      do {
        return try Data(contentsOf: url)
      } catch {
        throw CourierError(
          .transport, "The sample file \(url.path) could not be read: \(error)", underlyingError: error)
      }
    }
  }

  /// Makes the body: the bytes, the encoded value, or the file's contents.
  ///
  /// - Throws: ``CourierError`` when a value cannot be encoded or a file cannot be read.
  public func loadBody() throws -> Data {
    try makeBody()
  }

  /// The response head: status and header fields.
  public var response: HTTPResponse {
    HTTPResponse(status: status, headerFields: headerFields)
  }

  static func mediaType(of url: URL) -> String {
    switch url.pathExtension.lowercased() {
    case "json": "application/json"
    case "txt": "text/plain; charset=utf-8"
    case "html", "htm": "text/html; charset=utf-8"
    case "xml": "application/xml"
    case "png": "image/png"
    case "jpg", "jpeg": "image/jpeg"
    case "gif": "image/gif"
    case "pdf": "application/pdf"
    default: "application/octet-stream"
    }
  }
}

/// An endpoint's sample response; only a sample-mode interceptor reads it.
enum SampleKey: AttributeKey {
  static let defaultValue: SampleResponse? = nil
}

extension Endpoint {
  /// A canned response for sample mode (previews, demos, tests); see ``sample(_:)``. Never read when sending.
  public var sample: SampleResponse? {
    get { attributes[SampleKey.self] }
    set { attributes[SampleKey.self] = newValue }
  }

  /// Attaches a sample response, which a client in sample mode answers with instead of sending the request.
  ///
  /// ```swift
  /// let me = Endpoint<User>.get("/users/me").sample(.json(User.preview))
  /// ```
  public func sample(_ response: SampleResponse) -> Endpoint {
    with { $0.sample = response }
  }
}

extension CallContext {
  /// The endpoint's sample response, if it declares one; `SampleInterceptor` in CourierTesting answers with it.
  public var sample: SampleResponse? { self[SampleKey.self] }
}

extension HTTPFields {
  fileprivate func adding(_ name: HTTPField.Name, _ value: String) -> HTTPFields {
    guard self[name] == nil else { return self }
    var fields = self
    fields[name] = value
    return fields
  }
}
