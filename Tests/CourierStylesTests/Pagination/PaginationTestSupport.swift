import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import HTTPTypes

/// A transport that answers every request with a function of its path and query, and records each `:path` it saw.
struct FunctionTransport: HTTPTransport {
  let paths = Recorder<String>()
  let respond: @Sendable (_ path: String, _ query: [String: String]) throws -> (HTTPResponse.Status, Data)

  func send(
    _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    let path = request.path ?? "/"
    paths.append(path)
    let components = URLComponents(string: path)
    var query: [String: String] = [:]
    for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
    let (status, data) = try respond(components?.path ?? path, query)
    var response = HTTPResponse(status: status)
    response.headerFields[.contentType] = "application/json"
    return (response, BodyStream(data))
  }
}

/// A page of a cursor-paginated feed.
struct FeedPage: Codable, Sendable, Equatable {
  var items: [Int]
  var nextCursor: String?
}

/// A feed of the items 1…`count`, `limit` (default 3) per page, chained by cursors such as `after 3/=`: characters
/// that must be percent-encoded in a query.
func cursorFeed(count: Int) -> FunctionTransport {
  FunctionTransport { _, query in
    let limit = Int(query["limit"] ?? "3") ?? 3
    var start = 1
    if let cursor = query["cursor"] {
      guard cursor.hasPrefix("after "), let last = Int(cursor.dropFirst(6).dropLast(2)) else {
        return (.badRequest, Data(#"{"error":"bad cursor"}"#.utf8))
      }
      start = last + 1
    }
    let items = Array(start..<min(start + limit, count + 1))
    let next = (items.last ?? count) < count ? "after \(items.last ?? 0)/=" : nil
    return (.ok, try JSONEncoder().encode(FeedPage(items: items, nextCursor: next)))
  }
}

/// `GET /admin/stats` of the demo API: request counts by route.
struct PaginationStats: Decodable, Sendable {
  var requests: [String: Int]

  static let endpoint = Endpoint<PaginationStats>.get("/admin/stats")
}
