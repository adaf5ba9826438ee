import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A swift-openapi-runtime `ClientTransport` that sends every operation of a generated client through an
/// `APIClient`, so the generated client gets the client's interceptors (authentication and token refresh,
/// retry, cache, logging), its limits, cookies, redirect policy and deadlines.
///
/// ```swift
/// let api = APIClient(baseURL: serverURL) { $0.interceptors = [AuthInterceptor(provider: tokens)] }
/// let client = Client(serverURL: serverURL, transport: APIClientTransport(client: api) { operationID, endpoint in
///   switch operationID {
///   case "login", "signUp": endpoint.withoutAuthentication()
///   case "refreshToken": endpoint.asTokenRefresh()
///   default: endpoint
///   }
/// })
/// let page = try await client.listProducts(query: .init(category: "books")).ok.body.json
/// ```
///
/// Every status is handed to the generated code, which maps it to its typed outputs (a 404 is `.notFound`, not an
/// error). Responses are read whole, within the client's `APIClient.Configuration.maxResponseBytes` (or the
/// endpoint's), so the cache can store them. A failure to send or receive is thrown as the
/// `CourierError` Courier reports; the generated client wraps it in its `ClientError`, whose
/// `underlyingError` is that `CourierError`.
public struct APIClientTransport: ClientTransport {
  /// Adjusts the endpoint of one operation before it is sent, by the operation's `operationId`.
  public typealias Customization = @Sendable (_ operationID: String, _ endpoint: Endpoint<Data>) -> Endpoint<Data>

  /// The client every operation is sent through.
  public let client: APIClient
  private let customize: Customization

  /// A transport over `client`; `customize` adjusts each operation's endpoint (mark the sign-in operation
  /// `Endpoint.withoutAuthentication()`, the refresh `Endpoint.asTokenRefresh()`, give an
  /// operation a timeout or a cache policy).
  public init(client: APIClient, customize: @escaping Customization = { _, endpoint in endpoint }) {
    self.client = client
    self.customize = customize
  }

  /// Sends one operation's request through the client and returns the response with its whole body.
  public func send(
    _ request: HTTPRequest,
    body: OpenAPIRuntime.HTTPBody?,
    baseURL: URL,
    operationID: String
  ) async throws -> (HTTPResponse, OpenAPIRuntime.HTTPBody?) {
    let endpoint = customize(operationID, try Self.endpoint(for: request, body: body, baseURL: baseURL))
    let response = try await client.send(endpoint)
    return (response.response, OpenAPIRuntime.HTTPBody(response.data))
  }

  /// The endpoint that sends `request` (whose path carries the query) to `baseURL`, accepting every status.
  static func endpoint(for request: HTTPRequest, body: OpenAPIRuntime.HTTPBody?, baseURL: URL) throws -> Endpoint<Data>
  {
    var base = baseURL.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    let path = request.path ?? "/"
    guard let url = URL(string: base + (path.hasPrefix("/") ? path : "/" + path)) else {
      throw CourierError(.invalidURL, "The operation's URL '\(base)\(path)' is not valid", request: request)
    }
    var endpoint = Endpoint<Data>(url.absoluteString, method: request.method)
      .headers(request.headerFields)
      .expectAnyStatus()
    if let body {
      endpoint = endpoint.body(.body(Self.courierBody(body)))
    }
    return endpoint
  }

  /// The generated client's request body as a Courier body: streamed, with its length and iteration behaviour.
  static func courierBody(_ body: OpenAPIRuntime.HTTPBody) -> Courier.BodyStream {
    let length: Int64? =
      switch body.length {
      case .known(let count): count
      case .unknown: nil
      }
    return Courier.BodyStream(body.map { Data($0) }, length: length, isRepeatable: body.iterationBehavior == .multiple)
  }
}
