import Courier
import Foundation
import HTTPTypes

/// What a stub answers: a response (status, headers, body) or a transport failure, optionally after a delay.
///
/// ```swift
/// .status(.noContent)
/// .json(User(id: 1, name: "Ada"))
/// .json(APIErrorBody(error: "Sold out"), status: .conflict)
/// .body(#"{"id":1}"#, headerFields: [.contentType: "application/json"])
/// .file(fixtureURL)
/// .timeout                              // a CourierError of kind .timeout
/// .urlError(.notConnectedToInternet)    // classified by the client as .noConnection
/// .json(page).delayed(by: 0.5)          // waits on the transport's clock first
/// ```
public struct StubResponse: Sendable {
  enum Outcome: Sendable {
    case response(SampleResponse)
    case failure(@Sendable (HTTPRequest) -> any Error)
  }

  let outcome: Outcome
  /// Seconds the transport waits, on its clock, before it answers or fails.
  public var delay: TimeInterval = 0

  init(_ outcome: Outcome) {
    self.outcome = outcome
  }

  /// A response with `status`, the header fields and an empty body.
  public static func status(_ status: HTTPResponse.Status, headerFields: HTTPFields = [:]) -> StubResponse {
    .sample(SampleResponse(status: status, headerFields: headerFields))
  }

  /// A response whose body is `text` in UTF-8, with exactly the header fields given.
  public static func body(
    _ text: String,
    status: HTTPResponse.Status = .ok,
    headerFields: HTTPFields = [:]
  ) -> StubResponse {
    .data(Data(text.utf8), status: status, headerFields: headerFields)
  }

  /// A response whose body is `data`, with exactly the header fields given.
  public static func data(
    _ data: Data,
    status: HTTPResponse.Status = .ok,
    headerFields: HTTPFields = [:]
  ) -> StubResponse {
    .sample(SampleResponse(status: status, headerFields: headerFields, body: data))
  }

  /// A JSON body encoded from `value` (ISO 8601 dates unless you pass an encoder), with
  /// `Content-Type: application/json`.
  ///
  /// Pass a value, not JSON text: a `String` is encoded as a JSON string. For JSON text use
  /// ``body(_:status:headerFields:)``.
  public static func json(
    _ value: some Encodable & Sendable,
    status: HTTPResponse.Status = .ok,
    headerFields: HTTPFields = [:],
    encoder: JSONEncoder? = nil
  ) -> StubResponse {
    .sample(.json(value, status: status, headerFields: headerFields, encoder: encoder))
  }

  /// The contents of a fixture file, read when the stub answers, with a `Content-Type` from its extension.
  public static func file(
    _ url: URL,
    status: HTTPResponse.Status = .ok,
    headerFields: HTTPFields = [:]
  ) -> StubResponse {
    .sample(.file(url, status: status, headerFields: headerFields))
  }

  /// The response an endpoint declares as its sample: `.sample(MovieAPI.popular.sample!)`.
  public static func sample(_ sample: SampleResponse) -> StubResponse {
    StubResponse(.response(sample))
  }

  /// The same answer, given after `seconds` on the transport's clock.
  ///
  /// With a ``TestCallClock`` the wait is only recorded, so a test stays fast; with the default clock it is real,
  /// which is what you want to see a loading state or to test timeouts and cancellation.
  public func delayed(by seconds: TimeInterval) -> StubResponse {
    var copy = self
    copy.delay = seconds
    return copy
  }
}
