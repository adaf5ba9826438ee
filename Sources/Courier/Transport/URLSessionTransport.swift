import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport over `URLSession`, on Apple platforms and on Linux (FoundationNetworking, built on libcurl).
///
/// Each transport owns its session unless you pass one in. The default configuration turns off `URLCache`
/// (Courier does its own HTTP caching on every platform) and leaves cookies and redirects as URLSession does them.
///
/// ```swift
/// let client = APIClient(baseURL: url) { $0.transport = URLSessionTransport() }
/// ```
public final class URLSessionTransport: HTTPTransport {
  /// The session requests are sent with.
  public let session: URLSession
  private let ownsSession: Bool

  /// Creates a transport with its own session.
  public init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration()) {
    session = URLSession(configuration: configuration)
    ownsSession = true
  }

  /// Creates a transport over a session you own (and invalidate).
  public init(session: URLSession) {
    self.session = session
    ownsSession = false
  }

  deinit {
    if ownsSession { session.finishTasksAndInvalidate() }
  }

  /// An ephemeral-style configuration without `URLCache`.
  public static func defaultConfiguration() -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.default
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    return configuration
  }

  /// The codings URLSession decodes by itself.
  public var supportedContentEncodings: [String] {
    #if canImport(Darwin)
    ["br", "gzip", "deflate"]
    #else
    ["gzip", "deflate"]
    #endif
  }

  /// Sends the request with a data task; cancelling the calling task cancels the data task.
  public func send(
    _ request: HTTPRequest,
    body: HTTPBody?,
    options: TransportOptions
  ) async throws -> (HTTPResponse, HTTPBody) {
    guard var urlRequest = URLRequest(httpRequest: request) else {
      throw CourierError(.invalidURL, "The request has no usable URL", request: request)
    }
    urlRequest.timeoutInterval = options.timeout
    if let body {
      urlRequest.httpBody = try await body.collect()
    }
    let (data, urlResponse) = try await perform(urlRequest, request: request)
    guard let httpURLResponse = urlResponse as? HTTPURLResponse, let response = httpURLResponse.httpResponse else {
      throw CourierError(.transport, "The server's response is not an HTTP response", request: request)
    }
    return (response, HTTPBody(data))
  }

  private func perform(_ urlRequest: URLRequest, request: HTTPRequest) async throws -> (Data, URLResponse) {
    let state = Locked<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))
    do {
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          let task = session.dataTask(with: urlRequest) { data, response, error in
            if let error {
              continuation.resume(throwing: error)
            } else if let response {
              continuation.resume(returning: (data ?? Data(), response))
            } else {
              continuation.resume(throwing: URLError(.badServerResponse))
            }
          }
          let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
          }
          task.resume()
          if cancelled { task.cancel() }
        }
      } onCancel: {
        let task = state.withLock { state in
          state.cancelled = true
          return state.task
        }
        task?.cancel()
      }
    } catch {
      throw CourierError(transportFailure: error, request: request)
    }
  }
}
