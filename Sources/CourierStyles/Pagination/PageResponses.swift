import Courier
import Foundation

/// The pages of a paginated API as whole `APIResponse` values, fetched one request per `next()`; see
/// ``Courier/APIClient/pages(of:using:)`` and ``Pages/responses``.
///
/// ```swift
/// for try await response in client.pages(of: endpoint, using: .linkHeader()).responses {
///   print(response.status, response.headerFields[.init("X-RateLimit-Remaining")!] ?? "")
/// }
/// ```
public struct PageResponses<Value: Decodable & Sendable>: AsyncSequence, Sendable {
  /// Each page's response.
  public typealias Element = APIResponse<Value>

  let client: APIClient
  let first: Endpoint<Value>
  let paginator: Paginator<Value>

  /// Starts again from the first page; every iterator fetches its own pages.
  public func makeAsyncIterator() -> Iterator {
    Iterator(client: client, next: first, paginator: paginator)
  }

  /// Fetches the next page when asked, never ahead.
  public struct Iterator: AsyncIteratorProtocol, Sendable {
    enum State: Sendable {
      case fetch(Endpoint<Value>)
      case fail(CourierError)
      case finished
    }

    let client: APIClient
    var state: State
    let paginator: Paginator<Value>

    init(client: APIClient, next: Endpoint<Value>, paginator: Paginator<Value>) {
      self.client = client
      self.state = .fetch(next)
      self.paginator = paginator
    }

    /// Sends the next page's request and returns its response, or `nil` after the last page or an error.
    ///
    /// - Throws: The page's `CourierError`, after which the sequence ends; a cancellation error when the task is
    ///   cancelled, without sending anything. When the paginator fails to find the page after a received one, the
    ///   received page is returned first and the paginator's error is thrown by the following call.
    public mutating func next() async throws -> APIResponse<Value>? {
      let current = state
      state = .finished
      switch current {
      case .finished:
        return nil
      case .fail(let error):
        throw error
      case .fetch(let endpoint):
        guard !Task.isCancelled else {
          throw CourierError(.cancelled, "Fetching the next page was cancelled")
        }
        let response = try await client.send(endpoint)
        do {
          state = try paginator.nextEndpoint(after: response, from: endpoint).map(State.fetch) ?? .finished
        } catch let error as CourierError {
          state = .fail(error)
        } catch {
          state = .fail(
            CourierError(
              .decoding, "The page after this one could not be found: \(error)", request: response.request,
              response: response.response, body: response.data, underlyingError: error))
        }
        return response
      }
    }
  }
}
