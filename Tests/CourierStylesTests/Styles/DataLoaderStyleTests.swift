import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

// Style 4: a DataLoader with `dataRequest(url:method:headers:parameters:decoder:)`, open methods and headers.

@Suite struct DataLoaderStyleTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func loadsDataAndDecodablesFromAbsoluteURLs(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { _, server in
      let loader = DataLoader(baseURL: nil) { $0.transport = server.transport }
      let productsURL = server.baseURL.appendingPathComponent("products")

      let raw: Data = try await loader.dataRequest(url: productsURL, parameters: .query(["limit": 2]))
      let json = try JSONSerialization.jsonObject(with: raw) as? [String: Any]
      #expect((json?["items"] as? [Any])?.count == 2)

      let page: ProductPage = try await loader.dataRequest(
        url: productsURL, method: .get, headers: [.acceptLanguage(["fr", "en"])],
        parameters: .query(["category": "shoes", "sort": "-price", "limit": 3]))
      #expect(page.items.count == 3 && page.items.allSatisfy { $0.category == "shoes" })

      let tokens: Tokens = try await loader.dataRequest(
        url: server.baseURL.appendingPathComponent("auth/login"), method: .post, parameters: .body(Credentials()))
      let me: DemoUser = try await loader.dataRequest(
        url: server.baseURL.appendingPathComponent("users/me"),
        headers: [.authorization(bearerToken: tokens.accessToken)])
      #expect(me.email == "demo@courier.dev")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func openMethodsFormsAndItemsReachTheServer(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let purge = try #require(HTTPMethod("PURGE"))
      let purged: Echo = try await client.dataRequest(
        url: URL(string: "/echo/cache")!, method: purge, parameters: .query([URLQueryItem(name: "all", value: nil)]))
      #expect(purged.method == "PURGE")
      #expect(purged.rawQuery == "all")

      let form: Echo = try await client.dataRequest(
        url: URL(string: "/echo/form")!, method: .post, parameters: .form(["email": "a@b.c", "tags": ["x", "y"]]))
      #expect(form.header("Content-Type") == "application/x-www-form-urlencoded")
      #expect(form.body == "email=a%40b.c&tags%5B%5D=x&tags%5B%5D=y")

      let method: HTTPMethod = .delete
      let deleted: Data = try await client.dataRequest(url: URL(string: "/posts/1")!, method: method)
      #expect(deleted.isEmpty)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func theDecoderParameterDecidesHowTheBodyIsRead(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let tokens: Tokens = try await client.dataRequest(
        url: URL(string: "/auth/login")!, method: .post, parameters: .body(Credentials()))
      let meURL = URL(string: "/users/me")!
      let epochDecoder = JSONDecoder()
      epochDecoder.dateDecodingStrategy = .secondsSince1970
      let error = await #expect(throws: CourierError.self) {
        let _: DemoUser = try await client.dataRequest(
          url: meURL, headers: [.authorization(bearerToken: tokens.accessToken)], decoder: epochDecoder)
      }
      #expect(error?.kind == .decoding)
      #expect(error?.codingPath == "createdAt")

      let notFound = await #expect(throws: CourierError.self) {
        let _: Product = try await client.dataRequest(url: URL(string: "/products/999")!)
      }
      #expect(notFound?.serverError(as: DemoError.self)?.code == "not_found")
    }
  }
}
