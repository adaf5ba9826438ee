import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

@Suite struct RoutingTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: ["/nope", "/products/1/extra", "/admin", "/"])
  func unknownRouteIs404JSON(uri: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send(uri)
      #expect(response.status == .notFound)
      #expect(response.headers[.contentType] == "application/json; charset=utf-8")
      let error = try response.errorBody()
      #expect(error.code == "not_found")
      #expect(!error.error.isEmpty)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func wrongMethodIs405WithAllow() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/products", method: .put)
      #expect(response.status == .methodNotAllowed)
      #expect(response.headers[.allow] == "GET, HEAD")
      #expect(try response.errorBody().code == "method_not_allowed")

      let posts = try await client.send("/posts/1", method: .patch)
      #expect(posts.status == .methodNotAllowed)
      #expect(posts.headers[.allow] == "GET, HEAD, DELETE")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func headIsGeneratedForGetRoutes() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/products/1", method: .head)
      #expect(response.status == .ok)
      #expect(response.body.readableBytes == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func meIsNotMistakenForAnID() async throws {
    try await TestSupport.withRouter { client throws in
      #expect(try await client.send("/users/me").status == .unauthorized)
      #expect(try await client.send("/users/1").status == .ok)
      #expect(try await client.send("/users/9").status == .notFound)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func oversizedBodyIsJSONError() async throws {
    try await TestSupport.withRouter { client in
      let body = String(repeating: "x", count: JSONBody.maxSize + 1)
      let response = try await client.sendJSON("/posts", body)
      #expect(response.status == .contentTooLarge)
      #expect(response.isJSON)
      #expect(try response.errorBody().code == "payload_too_large")
    }
  }
}
