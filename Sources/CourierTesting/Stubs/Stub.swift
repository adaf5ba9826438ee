import Courier
import Foundation
import HTTPTypes

/// A canned answer for the requests that match it: a method, a path pattern and optional query, header and body
/// requirements, and the responses to give, in order.
///
/// ```swift
/// let transport = StubTransport(
///   .get("/users/:id").reply(.json(User(id: 1, name: "Ada"))),
///   .get("/products").query("page", "2").reply(.json(page2)),
///   .post("/posts").header("Idempotency-Key").body(json: NewPost(title: "Hi"))
///     .reply(.status(.serviceUnavailable), .json(Post(id: 7, title: "Hi"), status: .created)),
///   .get("/files/**").reply { request in .body("contents of \(request.path)") }
/// )
/// ```
///
/// A path is a pattern: `:name` matches one segment and captures it (``RecordedRequest/pathParameters``), `*` matches
/// any one segment and `**` everything after it. A relative path is matched after the client's base path (or against
/// the whole path); an absolute one (`https://cdn.example.com/images/*`) also requires the scheme and host. A `?`
/// starts query items the request must carry (`/search?q=shoes`).
///
/// A stub without a reply answers `200 OK` with an empty body. A sequence of replies is given one per request and
/// the last repeats, so `.reply(.status(.serviceUnavailable), .json(value))` fails once, then succeeds.
public struct Stub: Sendable {
  enum Responder: Sendable {
    case sequence([StubResponse])
    case closure(@Sendable (RecordedRequest) async throws -> StubResponse)
  }

  /// A name for failure messages and ``RecordedRequest/stub``; the stub's description when `nil`.
  public var name: String?
  var matcher: RequestMatcher
  var responder: Responder = .sequence([.status(.ok)])

  /// A stub for `method` (any when `nil`) and `path` (a pattern; any when `nil`).
  public init(_ method: HTTPRequest.Method? = nil, _ path: String? = nil) {
    matcher = RequestMatcher(method: method, path: path)
  }

  /// Matches every request; with no reply it answers `200 OK` with an empty body.
  public static var any: Stub { Stub() }

  /// A stub for `GET path`.
  public static func get(_ path: String) -> Stub { Stub(.get, path) }
  /// A stub for `HEAD path`.
  public static func head(_ path: String) -> Stub { Stub(.head, path) }
  /// A stub for `POST path`.
  public static func post(_ path: String) -> Stub { Stub(.post, path) }
  /// A stub for `PUT path`.
  public static func put(_ path: String) -> Stub { Stub(.put, path) }
  /// A stub for `PATCH path`.
  public static func patch(_ path: String) -> Stub { Stub(.patch, path) }
  /// A stub for `DELETE path`.
  public static func delete(_ path: String) -> Stub { Stub(.delete, path) }
  /// A stub for `OPTIONS path`.
  public static func options(_ path: String) -> Stub { Stub(.options, path) }

  /// Names the stub in failure messages and in ``RecordedRequest/stub``.
  public func named(_ name: String) -> Stub {
    with { $0.name = name }
  }

  /// Answers with `response`, then each of `more` in turn; the last one repeats.
  ///
  /// ```swift
  /// .get("/feed").reply(.status(.serviceUnavailable), .status(.serviceUnavailable), .json(feed))
  /// ```
  public func reply(_ response: StubResponse, _ more: StubResponse...) -> Stub {
    reply([response] + more)
  }

  /// Answers with the responses in turn; the last one repeats. An empty array answers `200 OK`.
  public func reply(_ responses: [StubResponse]) -> Stub {
    with { $0.responder = .sequence(responses.isEmpty ? [.status(.ok)] : responses) }
  }

  /// Answers with what `responder` returns for each request, for answers that depend on the request or on state.
  ///
  /// The closure may suspend and may throw; what it throws reaches the client as a transport failure.
  ///
  /// ```swift
  /// .get("/users/:id").reply { request in
  ///   guard let id = Int(request.pathParameters["id"] ?? "") else { return .status(.badRequest) }
  ///   return .json(User(id: id, name: "User \(id)"))
  /// }
  /// ```
  public func reply(_ responder: @escaping @Sendable (RecordedRequest) async throws -> StubResponse) -> Stub {
    with { $0.responder = .closure(responder) }
  }

  /// The name, or `GET /users/:id [X-API-Key: k]`.
  var label: String { name ?? matcher.description }

  func with(_ change: (inout Stub) -> Void) -> Stub {
    var copy = self
    change(&copy)
    return copy
  }
}
