import Foundation
import HTTPTypes

/// Everything about one API call: method, path, query, headers, body, which statuses count as success, how the
/// response is decoded, the timeout, and messages for failure statuses.
///
/// An endpoint is a plain value. Build it with a static factory and chain modifiers, then send it with
/// ``APIClient/send(_:)``:
///
/// ```swift
/// let products = Endpoint<ProductPage>.get("/products")
///   .query(["category": "shoes", "page": 2])
///   .header(.accept("application/json"))
///   .timeout(.seconds(10))
///
/// let signup = Endpoint<User>.post("/signup", body: newUser)
///   .expect(.created)
///   .message(for: .conflict, "That email is already registered")
/// ```
///
/// `Value` is what the body decodes to: any `Decodable`, or ``EmptyBody`` (body ignored), `Data` (raw bytes) or
/// `String` (UTF-8 text).
public struct Endpoint<Value: Decodable & Sendable>: Sendable {
  /// The request method.
  public var method: HTTPRequest.Method
  /// The path, joined to the base URL (`"/users/me"`), or an absolute `http`/`https` URL.
  ///
  /// Characters that may not stand in a path are percent-encoded (`"/users/John Doe"` is sent as
  /// `/users/John%20Doe`); valid `%XX` escapes are kept. A `?` starts a query that is sent as written, before the
  /// endpoint's ``query(_:)-(EncodableSendable)`` parameters; prefer those, which are encoded for you.
  public var path: String
  /// A base URL for this endpoint only, overriding the client's.
  public var baseURL: URL?
  /// The headers, checked when the request is built. Later entries with the same name replace earlier ones and the
  /// client's defaults.
  public var headers: [HTTPHeader]
  /// The body, if any.
  public var body: Payload?
  /// The statuses that count as success, set with the `expect` modifiers; anything else throws
  /// ``CourierError/Kind-swift.struct/unacceptableStatus``.
  var acceptedStatuses: StatusCodeSet
  /// The timeout in seconds, overriding the client's.
  public var timeout: TimeInterval?
  /// A decoder for this endpoint only.
  public var decoder: JSONDecoder?
  /// A body encoder for this endpoint only.
  public var encoder: JSONEncoder?
  /// A query encoder for this endpoint only.
  public var queryEncoder: URLQueryEncoder?
  /// Messages for failure statuses, by status, shown as ``CourierError/userMessage``.
  public var statusMessages: [HTTPResponse.Status: String]
  /// Per-call settings read by interceptors and transports: authentication, retry, logging, cache policy, and
  /// any of your own; set them with modifiers such as ``retries(_:)``, or with ``attribute(_:_:)``, and read one with
  /// `endpoint[SomeKey.self]`.
  package var attributes: Attributes
  /// The shortest time the call takes, in seconds, so a spinner does not flicker; cancellation is still immediate.
  public var minimumDuration: TimeInterval?
  /// How this call's JSON dates are written and read, over the model's and the client's; see
  /// ``dateCodingStrategy(_:)``.
  public var dateCodingStrategy: DateCodingStrategy?

  var queryParts: [QueryPart]
  var decodeBody: (@Sendable (Data, HTTPResponse, JSONDecoder) throws -> Value)?

  // Settings the call pipeline reads, set with their modifiers; interceptors' settings are `attributes`.

  /// See ``idleTimeout(_:)``.
  var idleTimeout: TimeInterval?
  /// See ``maxResponseBytes(_:)``.
  var maxResponseBytes: Int?
  /// See ``redirects(_:)``.
  var redirectPolicy: RedirectPolicy?
  /// See ``onTransportStart(_:)``.
  var transportStart: (@Sendable () async -> Void)?
  /// See ``onUploadProgress(_:)``.
  var uploadProgress: (@Sendable (TransferProgress) -> Void)?
  /// See ``onDownloadProgress(_:)``.
  var downloadProgress: (@Sendable (TransferProgress) -> Void)?

  /// Creates an endpoint; `Endpoint<Token>("auth/login").method(.post)` reads like the request it describes.
  public init(_ path: String, method: HTTPRequest.Method = .get) {
    self.method = method
    self.path = path
    self.headers = []
    self.acceptedStatuses = .success
    self.statusMessages = [:]
    self.attributes = Attributes()
    self.queryParts = []
  }

  /// Whether a response with `status` counts as success rather than throwing
  /// ``CourierError/Kind-swift.struct/unacceptableStatus``: 200 to 299 unless set with `expect(.created)`,
  /// `expect(200..<400)` or ``expectAnyStatus()``.
  ///
  /// ```swift
  /// Endpoint<EmptyBody>.delete("/posts/3").expect(.noContent).accepts(.ok)   // false
  /// ```
  public func accepts(_ status: HTTPResponse.Status) -> Bool {
    acceptedStatuses.contains(status)
  }
}

/// One piece of an endpoint's query: hand-written, or an `Encodable` encoded when the request is built.
enum QueryPart: Sendable {
  case query(QueryParameters)
  case encodable(@Sendable (URLQueryEncoder) throws -> [URLQueryItem])
}
