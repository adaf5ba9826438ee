import Foundation
import HTTPTypes

/// Sends ``Endpoint`` values and returns typed ``APIResponse`` values.
///
/// A client is immutable once made and safe to share between tasks. Make one per API:
///
/// ```swift
/// let client = APIClient(baseURL: URL(string: "https://api.example.com/v1")) {
///   $0.serverErrorType = APIErrorBody.self
///   $0.timeout = 30
/// }
/// let user: User = try await client.value(.get("/users/me"))
/// ```
public final class APIClient: Sendable {
  /// The configuration the client was made with.
  public let configuration: Configuration
  /// What the client made of its configuration for its calls (see the walk-through in `Pipeline/CallEngine.swift`).
  let engine: CallEngine

  /// Creates a client with a full configuration.
  public init(configuration: Configuration) {
    self.configuration = configuration
    engine = CallEngine(configuration)
  }

  /// Creates a client for `baseURL`, letting you adjust the rest of the configuration.
  public convenience init(baseURL: URL?, _ configure: (inout Configuration) -> Void = { _ in }) {
    var configuration = Configuration(baseURL: baseURL)
    configure(&configuration)
    self.init(configuration: configuration)
  }
}

extension APIClient {
  /// How a client builds, sends and decodes requests.
  public struct Configuration: Sendable {
    /// The URL relative endpoint paths are joined to.
    public var baseURL: URL?
    /// The transport requests go through; ``URLSessionTransport`` by default.
    public var transport: any HTTPTransport
    /// Headers every request carries unless its endpoint sets the same name; see `HTTPFields.courierDefaults`.
    /// `Accept-Encoding` is added from the transport's ``HTTPTransport/supportedContentEncodings`` when absent.
    public var defaultHeaders: HTTPFields
    /// Decodes response bodies; dates as ISO 8601 by default.
    public var decoder: JSONDecoder
    /// Encodes JSON bodies; dates as ISO 8601 by default.
    public var encoder: JSONEncoder
    /// Encodes queries and form bodies.
    public var queryEncoder: URLQueryEncoder
    /// The default timeout in seconds (60).
    public var timeout: TimeInterval
    /// The type your server's error bodies decode to; see ``ServerErrorResponse``.
    public var serverErrorType: (any ServerErrorResponse.Type)?
    /// The interceptors every call passes through, outermost first; see ``Interceptor`` for the recommended order.
    public var interceptors: [any Interceptor]
    /// How redirects are followed, after the interceptors and before the transport; at most 10 by default.
    /// Endpoints override it with ``Endpoint/redirects(_:)``.
    public var redirects: RedirectPolicy = .follow
    /// The language of the messages ``CourierError/userMessage`` shows: one Courier ships (`en`, `ru`), or `nil`
    /// (the default) for the first of the app's preferred languages that Courier ships, English when none is.
    ///
    /// ```swift
    /// let client = APIClient(baseURL: api) {
    ///   $0.messageLanguage = "ru"
    ///   $0.kindMessages[.noConnection] = "Нет сети — покажем сохранённое"
    ///   $0.statusMessages[.notFound] = "Такой страницы нет"
    /// }
    /// ```
    ///
    /// An endpoint's own message for a status (``Endpoint/message(for:_:)``) comes first, then ``statusMessages``,
    /// then ``kindMessages``, then the server's message from its error body, then Courier's sentence for the status
    /// or the kind.
    public var messageLanguage: String?
    /// Your messages for every failure of a kind, over Courier's (a status the server answered with is
    /// ``CourierError/Kind-swift.struct/unacceptableStatus``); see ``messageLanguage``.
    public var kindMessages: [CourierError.Kind: String] = [:]
    /// Your messages for every failure with a status, over Courier's and ``kindMessages``; see ``messageLanguage``.
    public var statusMessages: [HTTPResponse.Status: String] = [:]
    /// The hosts besides loopback (`127.0.0.0/8`, `::1`, `localhost`) the client may send plain `http` to; none by
    /// default. Anything sent over plain http — tokens, cookies, personal data — can be read and changed by anyone on
    /// the way, so Courier refuses it unless you allow it, as Apple's App Transport Security does. Each entry is a
    /// name or address compared without case, `*.example.com` for the names under `example.com`, or `*` for every
    /// host. Redirects from https to http are refused whatever this says (see ``RedirectPolicy``).
    ///
    /// ```swift
    /// let client = APIClient(baseURL: URL(string: "http://printer.local")) {
    ///   $0.cleartextHosts = ["printer.local"]
    /// }
    /// ```
    public var cleartextHosts: Set<String> = []
    /// The largest response body ``APIClient/send(_:)`` reads into memory (50 MiB by default); a larger one ends the
    /// transfer early with ``CourierError/Kind-swift.struct/responseTooLarge`` (at once when its `Content-Length`
    /// says so). Endpoints override it with ``Endpoint/maxResponseBytes(_:)``; streams and downloads read a body as
    /// it arrives and are not limited.
    public var maxResponseBytes = 50 << 20
    /// How long a call may go without receiving a byte (waiting for the response head, or between chunks of the
    /// body) before it fails with ``CourierError/Kind-swift.struct/timeout``; `nil` (the default) for no idle limit
    /// within the call's ``timeout``. Endpoints override it with ``Endpoint/idleTimeout(_:)``.
    public var idleTimeout: TimeInterval?
    /// The cookies the client keeps and sends: a new jar in memory by default, one per configuration. Share a
    /// ``CookieJar`` between clients, persist it with ``CookieJar/init(persistingTo:)``, or set `nil` to keep and
    /// send none (a `Cookie` header you set yourself still goes out). Courier applies cookies to every hop of a
    /// redirect; transports keep none of their own.
    public var cookies: CookieJar? = CookieJar()
    /// The clock the client's calls keep time on: their deadlines and idle timeouts, minimum durations and the
    /// durations their events report. The system's by default, whose deadlines fire on a Dispatch timer of their
    /// own; CourierTesting's `TestCallClock` lets a test move time by hand.
    public var clock: any CallClock = SystemCallClock()
    /// Receives every call's ``CourierEvent``s.
    public var eventHandler: (@Sendable (CourierEvent) -> Void)?
    /// How JSON dates are written and read for every call, over ``decoder`` and ``encoder``; `nil` (the default)
    /// leaves them as configured. An endpoint's or a model's strategy wins over it; see ``DateCodingStrategy``.
    public var dateCodingStrategy: DateCodingStrategy?
    /// Headers computed for every request, after ``defaultHeaders`` and before the endpoint's; see
    /// ``addHeaders(_:)``.
    var headerProviders: [HeaderProvider] = []
    /// Gives the base URL for each request, over ``baseURL``; set by `APIClient(environment:_:)` (CourierStyles) so
    /// that switching the environment changes where the next request goes.
    public var baseURLProvider: (@Sendable () -> URL)?

    /// Creates a configuration with defaults for everything but the base URL.
    public init(baseURL: URL? = nil, transport: any HTTPTransport = URLSessionTransport()) {
      self.baseURL = baseURL
      self.transport = transport
      defaultHeaders = .courierDefaults
      decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .iso8601
      encoder = JSONEncoder()
      encoder.dateEncodingStrategy = .iso8601
      queryEncoder = URLQueryEncoder()
      timeout = 60
      interceptors = []
    }
  }
}
