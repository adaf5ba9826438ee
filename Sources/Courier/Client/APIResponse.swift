import Foundation
import HTTPTypes

/// The result of a successful call: the decoded value, the raw body bytes, the response head and the request
/// that was sent.
public struct APIResponse<Value: Sendable>: Sendable {
  /// The decoded body.
  public var value: Value
  /// The raw body bytes, as received; empty for a ``StreamedResponse``, whose bytes are read from its ``body``.
  public var data: Data
  /// The response head: status and header fields.
  public var response: HTTPResponse
  /// The request as it was sent, with every header Courier added.
  public var request: HTTPRequest
  /// Where the response came from when a ``CacheInterceptor`` took part: `miss`, `hit`, `revalidated` or `stale`.
  public var cacheStatus: CacheStatus?
  /// The URLs redirects sent the call on to, in order; the last is where the response came from. Empty when the
  /// first request was answered.
  public var redirects: [URL]

  /// Creates a response. Courier creates these for you; the initializer is public for test doubles.
  public init(
    value: Value,
    data: Data,
    response: HTTPResponse,
    request: HTTPRequest,
    cacheStatus: CacheStatus? = nil,
    redirects: [URL] = []
  ) {
    self.value = value
    self.data = data
    self.response = response
    self.request = request
    self.cacheStatus = cacheStatus
    self.redirects = redirects
  }

  /// The response status.
  public var status: HTTPResponse.Status { response.status }
  /// The response header fields.
  public var headerFields: HTTPFields { response.headerFields }
  /// The URL the request was sent to.
  public var url: URL? { request.url }

  /// The same response with its value transformed.
  public func map<T: Sendable>(_ transform: (Value) throws -> T) rethrows -> APIResponse<T> {
    APIResponse<T>(
      value: try transform(value), data: data, response: response, request: request, cacheStatus: cacheStatus,
      redirects: redirects)
  }
}
