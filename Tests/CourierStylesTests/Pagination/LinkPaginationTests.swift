import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

@Suite("Link header pagination against the demo API")
struct LinkPaginationTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("follows rel=\"next\" until the last page, by default", arguments: TransportKind.allCases)
  func followsLinks(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      var ids: [Int] = []
      var pages = 0
      for try await page in client.pages(of: Endpoint<ProductPage>.get("/products", query: ["limit": 25])) {
        pages += 1
        ids += page.items.map(\.id)
      }
      #expect(pages == 3)
      #expect(ids == Array(1...57))
      let stats = try await client.value(PaginationStats.endpoint)
      #expect(stats.requests["GET /products"] == 3)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("the server's links keep the filters; responses expose the links", arguments: TransportKind.allCases)
  func responses(kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let first = Endpoint<ProductPage>.get("/products", query: ["category": "games", "limit": 3])
      var nextLinks: [URL?] = []
      var categories = Set<String>()
      for try await response in client.pages(of: first, using: .linkHeader()).responses {
        nextLinks.append(response.link("next"))
        categories.formUnion(response.value.items.map(\.category))
      }
      #expect(categories == ["games"])
      #expect(nextLinks.count >= 2)
      #expect(nextLinks.last == .some(nil), "the last page has no next link")
      let second = try #require(nextLinks.first ?? nil)
      let items = URLComponents(url: second, resolvingAgainstBaseURL: false)?.queryItems ?? []
      #expect(items.contains(URLQueryItem(name: "page", value: "2")))
      #expect(items.contains(URLQueryItem(name: "category", value: "games")))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a relation other than next can be followed")
  func otherRelation() async throws {
    let transport = FunctionTransport { path, _ in
      let number = Int(path.split(separator: "/").last ?? "") ?? 0
      return (.ok, try JSONEncoder().encode(FeedPage(items: [number], nextCursor: nil)))
    }
    let linking = ClosureInterceptor { request, body, context, next in
      var (response, responseBody) = try await next(request, body, context)
      let number = Int(request.path?.split(separator: "/").last ?? "") ?? 0
      if number < 3 {
        response.headerFields[HTTPField.Name("Link")!] = #"<\#(number + 1)>; rel="older", </x>; rel="next""#
      }
      return (response, responseBody)
    }
    let client = APIClient(baseURL: URL(string: "https://links.test/api/")) {
      $0.transport = transport
      $0.interceptors = [linking]
    }
    var items: [Int] = []
    for try await page in client.pages(of: Endpoint<FeedPage>.get("items/1"), using: .linkHeader(relation: "OLDER")) {
      items += page.items
    }
    #expect(items == [1, 2, 3])
    #expect(transport.paths.values == ["/api/items/1", "/api/items/2", "/api/items/3"])
  }
}
