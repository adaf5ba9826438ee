import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

@Suite struct ProductTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func defaultPage() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/products")
      #expect(response.status == .ok)
      let page = try response.decode(ProductPage.self)
      #expect(page.total == 57)
      #expect(page.page == 1)
      #expect(page.limit == 20)
      #expect(page.hasMore)
      #expect(page.items.map(\.id) == Array(1...20))
      let first = try #require(page.items.first)
      #expect(first.name == "Trail Runner 1")
      #expect(first.category == "shoes")
      #expect(first.price == 37.99)
      #expect(response.text.contains(#""createdAt":"2024-02-01T12:00:00Z""#))
      #expect(response.text.contains(#""price":37.99"#))
      #expect(
        response.headers[.webLink] == #"<http://localhost/products?page=2>; rel="next""#
      )
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func categoriesCycle() async throws {
    let categories = SeedData.products.prefix(8).map(\.category)
    #expect(categories == ["shoes", "books", "games", "garden", "shoes", "books", "games", "garden"])
    #expect(Set(SeedData.products.map(\.id)).count == 57)
    #expect(SeedData.products.allSatisfy { ($0.price * 100).rounded() / 100 == $0.price })
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func lastPageHasNoMoreAndNoLink() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/products?page=3")
      let page = try response.decode(ProductPage.self)
      #expect(page.items.map(\.id) == Array(41...57))
      #expect(!page.hasMore)
      #expect(response.headers[.webLink] == nil)

      let beyond = try await client.send("/products?page=99").decode(ProductPage.self)
      #expect(beyond.items.isEmpty)
      #expect(beyond.total == 57)
      #expect(!beyond.hasMore)

      let huge = try await client.send("/products?page=\(Int.max)&limit=100").decode(ProductPage.self)
      #expect(huge.items.isEmpty)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func filtersCombine() async throws {
    try await TestSupport.withRouter { client in
      let page = try await client.send("/products?category=books&minPrice=50&maxPrice=150&limit=100")
        .decode(ProductPage.self)
      let expected = SeedData.products.filter { $0.category == "books" && $0.price >= 50 && $0.price <= 150 }
      #expect(page.items == expected)
      #expect(page.total == expected.count)
      #expect(!page.items.isEmpty)
      #expect(!page.hasMore)

      let none = try await client.send("/products?category=spaceships").decode(ProductPage.self)
      #expect(none.total == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: ["price", "-price", "name", "-name", "id", "-id"])
  func sorting(sort: String) async throws {
    let expected = SeedData.products.sorted { a, b in
      switch sort {
      case "price": return (a.price, a.id) < (b.price, b.id)
      case "-price": return a.price != b.price ? a.price > b.price : a.id < b.id
      case "name": return (a.name, a.id) < (b.name, b.id)
      case "-name": return a.name != b.name ? a.name > b.name : a.id < b.id
      case "-id": return a.id > b.id
      default: return a.id < b.id
      }
    }
    try await TestSupport.withRouter { client in
      let page = try await client.send("/products?sort=\(sort)&limit=100").decode(ProductPage.self)
      #expect(page.items == expected)
      #expect(page.items.count == 57)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func paginationWalksEverything() async throws {
    try await TestSupport.withRouter { client in
      var ids: [Int] = []
      var page = 1
      var hasMore = true
      while hasMore {
        let response = try await client.send("/products?sort=-price&limit=7&page=\(page)")
        let result = try response.decode(ProductPage.self)
        ids += result.items.map(\.id)
        hasMore = result.hasMore
        #expect((response.headers[.webLink] != nil) == hasMore)
        page += 1
      }
      #expect(ids.count == 57)
      #expect(Set(ids).count == 57)
      #expect(page == 10)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func linkHeaderKeepsOtherParameters() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/products?category=shoes&limit=5&page=1&sort=-price&minPrice=0")
      #expect(
        response.headers[.webLink]
          == #"<http://localhost/products?category=shoes&limit=5&page=2&sort=-price&minPrice=0>; rel="next""#
      )
      let appended = try await client.send("/products?limit=10")
      #expect(appended.headers[.webLink] == #"<http://localhost/products?limit=10&page=2>; rel="next""#)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    ("page=0", "page"), ("page=abc", "page"), ("page=-1", "page"), ("page=99999999999999999999", "page"),
    ("limit=0", "limit"), ("limit=101", "limit"), ("limit=1.5", "limit"),
    ("minPrice=cheap", "minPrice"), ("maxPrice=nan", "maxPrice"), ("maxPrice=-1", "maxPrice"),
    ("sort=price,desc", "sort"), ("sort=", "sort"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func badParametersAre400(query: String, parameter: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/products?\(query)")
      #expect(response.status == .badRequest)
      #expect(response.isJSON)
      let error = try response.errorBody()
      #expect(error.code == "invalid_parameter")
      #expect(error.parameter == parameter)
      #expect(error.error.contains(parameter))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func singleProduct() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/products/42")
      #expect(response.status == .ok)
      #expect(try response.decode(Product.self) == SeedData.product(id: 42))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func missingProductIs404WithBody() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/products/999")
      #expect(response.status == .notFound)
      #expect(response.headers[.contentType] == "application/json; charset=utf-8")
      #expect(try response.errorBody() == ErrorBody(code: "not_found", error: "Product 999 not found"))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func nonNumericProductIDIs400() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/products/abc")
      #expect(response.status == .badRequest)
      #expect(try response.errorBody().code == "invalid_parameter")
    }
  }
}
