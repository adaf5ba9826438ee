import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

@Suite struct PostTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func seededPosts() async throws {
    try await TestSupport.withRouter { client in
      let post = try await client.send("/posts/3").decode(Post.self)
      #expect(post == Post(id: 3, title: "Post 3", body: "This is the body of post 3."))
      #expect(try await client.send("/posts").decode([Post].self).map(\.id) == Array(1...10))
      #expect(try await client.send("/posts/11").errorBody().code == "not_found")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func createThenDelete() async throws {
    try await TestSupport.withRouter { client in
      let created = try await client.sendJSON("/posts", #"{"title":"Hello","body":"World"}"#)
      #expect(created.status == .created)
      #expect(created.headers[.location] == "/posts/11")
      #expect(try created.decode(Post.self) == Post(id: 11, title: "Hello", body: "World"))
      #expect(try await client.send("/posts/11").decode(Post.self).title == "Hello")

      let deleted = try await client.send("/posts/11", method: .delete)
      #expect(deleted.status == .noContent)
      #expect(deleted.body.readableBytes == 0)

      let again = try await client.send("/posts/11", method: .delete)
      #expect(again.status == .notFound)
      #expect(try again.errorBody().code == "not_found")
      #expect(try await client.send("/posts/11").status == .notFound)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func invalidPosts() async throws {
    try await TestSupport.withRouter { client throws in
      #expect(try await client.sendJSON("/posts", #"{"title":"only"}"#).status == .badRequest)
      #expect(try await client.sendJSON("/posts", #"{"title":"","body":"x"}"#).status == .unprocessableContent)
      #expect(try await client.sendJSON("/posts", "{").status == .badRequest)
      #expect(try await client.send("/posts/x", method: .delete).status == .badRequest)
    }
  }
}
