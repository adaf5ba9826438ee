import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import Testing

@Suite("Cursor pagination")
struct CursorPaginationTests {
  private let baseURL = URL(string: "https://feed.test/api")

  @Test("follows the cursor from page to page, keeping the other parameters, until there is none")
  func followsCursors() async throws {
    let transport = cursorFeed(count: 7)
    let client = APIClient(baseURL: baseURL) { $0.transport = transport }
    var pages: [[Int]] = []
    for try await page in client.pages(
      of: Endpoint<FeedPage>.get("/feed", query: ["limit": 3]), using: .cursor { $0.nextCursor })
    {
      pages.append(page.items)
    }
    #expect(pages == [[1, 2, 3], [4, 5, 6], [7]])
    #expect(
      transport.paths.values == [
        "/api/feed?limit=3", "/api/feed?limit=3&cursor=after%203%2F%3D", "/api/feed?limit=3&cursor=after%206%2F%3D",
      ])
  }

  @Test("a cursor already in the first URL is replaced, not repeated")
  func replacesCursor() async throws {
    let transport = cursorFeed(count: 5)
    let client = APIClient(baseURL: baseURL) { $0.transport = transport }
    let first = Endpoint<FeedPage>.get("/feed", query: ["cursor": "after 2/=", "limit": 2])
    var items: [Int] = []
    for try await page in client.pages(of: first, using: .cursor { $0.nextCursor }) { items += page.items }
    #expect(items == [3, 4, 5])
    #expect(transport.paths.values.last == "/api/feed?cursor=after%204%2F%3D&limit=2")
  }

  @Test("a custom parameter name, an empty cursor and a repeated cursor all end the pages")
  func endings() async throws {
    let transport = FunctionTransport { _, query in
      let page = Int(query["token"] ?? "0") ?? 0
      let next = page < 2 ? String(page + 1) : (page == 2 ? "2" : "")
      return (.ok, try JSONEncoder().encode(FeedPage(items: [page], nextCursor: next)))
    }
    let client = APIClient(baseURL: baseURL) { $0.transport = transport }
    var items: [Int] = []
    for try await page in client.pages(of: Endpoint<FeedPage>.get("/t"), using: .cursor("token") { $0.nextCursor }) {
      items += page.items
    }
    #expect(items == [0, 1, 2], "page 2 names itself as next, which ends the pages")

    let empty = FunctionTransport { _, _ in (.ok, Data(#"{"items":[1],"nextCursor":""}"#.utf8)) }
    let emptyClient = APIClient(baseURL: baseURL) { $0.transport = empty }
    var count = 0
    for try await _ in emptyClient.pages(of: Endpoint<FeedPage>.get("/t"), using: .cursor { $0.nextCursor }) {
      count += 1
    }
    #expect(count == 1)
  }

  @Test("a failing page is thrown from the loop and ends the sequence")
  func errorEnds() async throws {
    let transport = FunctionTransport { _, query in
      if query["cursor"] != nil { return (.badGateway, Data(#"{"error":"upstream"}"#.utf8)) }
      return (.ok, try JSONEncoder().encode(FeedPage(items: [1], nextCursor: "c")))
    }
    let client = APIClient(baseURL: baseURL) { $0.transport = transport }
    var iterator = client.pages(of: Endpoint<FeedPage>.get("/t"), using: .cursor { $0.nextCursor }).makeAsyncIterator()
    let first = try await iterator.next()
    #expect(first?.items == [1])
    let error = await #expect(throws: CourierError.self) { try await iterator.next() }
    #expect(error?.status == .badGateway)
    let after = try await iterator.next()
    #expect(after == nil)
    #expect(transport.paths.values.count == 2)
  }

  @Test("pages are fetched lazily: one request per next(), none before the first")
  func lazy() async throws {
    let transport = cursorFeed(count: 100)
    let client = APIClient(baseURL: baseURL) { $0.transport = transport }
    let pages = client.pages(of: Endpoint<FeedPage>.get("/feed"), using: .cursor { $0.nextCursor })
    #expect(transport.paths.values.isEmpty)
    var iterator = pages.makeAsyncIterator()
    _ = try await iterator.next()
    _ = try await iterator.next()
    #expect(transport.paths.values.count == 2)
    var taken = 0
    for try await _ in pages.prefix(4) { taken += 1 }
    #expect(taken == 4)
    #expect(transport.paths.values.count == 6, "a new iteration starts again from the first page")
  }

  @Test("a paginator that throws delivers the page it read, then ends with a decoding error that keeps it")
  func paginatorThrows() async throws {
    struct Broken: Error {}
    let transport = cursorFeed(count: 9)
    let client = APIClient(baseURL: baseURL) { $0.transport = transport }
    let paginator = Paginator<FeedPage> { _, _ in throw Broken() }
    var iterator = client.pages(of: Endpoint<FeedPage>.get("/feed"), using: paginator).makeAsyncIterator()
    let page = try await iterator.next()
    #expect(page?.items == [1, 2, 3])
    let error = await #expect(throws: CourierError.self) { try await iterator.next() }
    #expect(error?.kind == .decoding)
    #expect(error?.underlyingError is Broken)
    #expect(error?.body.map { String(decoding: $0, as: UTF8.self) }?.contains("nextCursor") == true)
    let after = try await iterator.next()
    #expect(after == nil)
    #expect(transport.paths.values.count == 1)
  }
}
