import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import Testing

@Suite("Page-number pagination against the demo API")
struct PageNumberPaginationTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("walks every page while hasMore, one request per page", arguments: TransportKind.allCases)
  func walksAllPages(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      var pageNumbers: [Int] = []
      var ids: [Int] = []
      let first = Endpoint<ProductPage>.get("/products", query: ["limit": 20])
      for try await page in client.pages(of: first, using: .pageNumber { $0.hasMore }) {
        pageNumbers.append(page.page)
        ids += page.items.map(\.id)
      }
      #expect(pageNumbers == [1, 2, 3])
      #expect(ids == Array(1...57))
      let stats = try await client.value(PaginationStats.endpoint)
      #expect(stats.requests["GET /products"] == 3)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("keeps filters and sort, and can stop on a total instead of a flag", arguments: TransportKind.allCases)
  func keepsParameters(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let query: QueryParameters = ["category": "books", "sort": "-price", "limit": 4]
      var paged: [Product] = []
      let paginator = Paginator<ProductPage>.pageNumber { $0.page * $0.limit < $0.total }
      for try await page in client.pages(of: .get("/products", query: query), using: paginator) {
        paged += page.items
      }
      let whole = try await client.value(
        Endpoint<ProductPage>.get("/products", query: ["category": "books", "sort": "-price", "limit": 100]))
      #expect(!paged.isEmpty)
      #expect(paged == whole.items)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("starts from the page the first endpoint names", arguments: TransportKind.allCases)
  func startsMidway(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      var pageNumbers: [Int] = []
      let first = Endpoint<ProductPage>.get("/products", query: ["page": 2, "limit": 20])
      for try await page in client.pages(of: first, using: .pageNumber { $0.hasMore }) {
        pageNumbers.append(page.page)
      }
      #expect(pageNumbers == [2, 3])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("breaking out of the loop stops fetching", arguments: TransportKind.allCases)
  func lazy(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let pages = client.pages(
        of: Endpoint<ProductPage>.get("/products", query: ["limit": 5]), using: .pageNumber { $0.hasMore })
      for try await page in pages {
        #expect(page.page == 1)
        break
      }
      let stats = try await client.value(PaginationStats.endpoint)
      #expect(stats.requests["GET /products"] == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a failing first page is thrown and ends the sequence", arguments: TransportKind.allCases)
  func firstPageFails(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let pages = client.pages(
        of: Endpoint<ProductPage>.get("/products", query: ["limit": 1000]), using: .pageNumber { $0.hasMore })
      var iterator = pages.makeAsyncIterator()
      let error = await #expect(throws: CourierError.self) { try await iterator.next() }
      #expect(error?.status == .badRequest)
      #expect(error?.serverError(as: DemoError.self)?.code == "invalid_parameter")
      let after = try await iterator.next()
      #expect(after == nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("cancelling the iterating task ends an in-flight page quickly", arguments: TransportKind.allCases)
  func cancellationInFlight(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let toSlow = Paginator<ProductPage> { _, _ in Endpoint<ProductPage>.get("/slow", query: ["ms": 30_000]) }
      let (arrived, signal) = AsyncStream.makeStream(of: Int.self)
      let iteration = Task {
        for try await page in client.pages(of: .get("/products", query: ["limit": 2]), using: toSlow) {
          signal.yield(page.page)
        }
      }
      var firstPages = arrived.makeAsyncIterator()
      #expect(await firstPages.next() == 1)
      try await Task.sleep(for: .milliseconds(100))
      iteration.cancel()
      let error = await #expect(throws: CourierError.self) { try await iteration.value }
      #expect(error?.isCancellation == true)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a cancelled task sends nothing", arguments: TransportKind.allCases)
  func cancelledBeforehand(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let pages = client.pages(of: Endpoint<ProductPage>.get("/products"), using: .pageNumber { $0.hasMore })
      let iteration = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        var iterator = pages.makeAsyncIterator()
        return try await iterator.next()
      }
      let error = await #expect(throws: CourierError.self) { try await iteration.value }
      #expect(error?.isCancellation == true)
      let stats = try await client.value(PaginationStats.endpoint)
      #expect(stats.requests["GET /products"] == nil)
    }
  }
}
