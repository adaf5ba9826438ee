import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

// Style 5: a fluent builder, requests grouped by controller.

@available(macOS 14, iOS 17, tvOS 17, *)
private struct LoginResponse: Decodable, Sendable {
  var accessToken: String
  var tokenType: String
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct Article: Codable, Sendable, Equatable {
  var id: Int
  var title: String
  var body: String
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct NewArticle: Encodable, Sendable {
  var title: String
  var body: String
}

@available(macOS 14, iOS 17, tvOS 17, *)
private enum API {
  static let auth = AuthController()
  static let post = PostController()
  static let user = UserController()
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct AuthController {
  func login(email: String, password: String) -> APIRequest<LoginResponse> {
    APIRequest<LoginResponse>("auth/login")
      .method(.post)
      .basicAuth(email: email, password: password)
      .message(for: .unauthorized, "Wrong email or password")
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct PostController {
  func create(title: String, body: String) -> APIRequest<Article> {
    APIRequest("posts").method(.post).body(json: NewArticle(title: title, body: body)).expect(.created)
  }

  func get(id: Int) -> APIRequest<Article> {
    APIRequest("posts/\(id)").message(for: .notFound, "Post not found")
  }

  func delete(id: Int) -> APIRequest<EmptyBody> {
    APIRequest("posts/\(id)").method(.delete).expect(.noContent)
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
private struct UserController {
  func me(token: String) -> APIRequest<DemoUser> {
    APIRequest("users/me").bearer(token)
  }

  func user(id: Int) -> APIRequest<DemoUser> {
    APIRequest("users/\(id)").message(for: .notFound, "User not found")
  }
}

@Suite struct BuilderStyleTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func controllersLogInAndReadTheProfile(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let login = try await client.send(API.auth.login(email: "demo@courier.dev", password: "secret123"))
      #expect(login.request.headerFields[.authorization]?.hasPrefix("Basic ") == true)
      #expect(login.request.method == .post)
      let me = try await client.value(API.user.me(token: login.value.accessToken))
      #expect(me.email == "demo@courier.dev")

      let wrong = await #expect(throws: CourierError.self) {
        try await client.send(API.auth.login(email: "demo@courier.dev", password: "nope"))
      }
      #expect(wrong?.userMessage == "Wrong email or password")
      let missing = await #expect(throws: CourierError.self) { try await client.send(API.user.user(id: 999)) }
      #expect(missing?.status == .notFound)
      #expect(missing?.userMessage == "User not found")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func expectedStatusesAreEnforced(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let created = try await client.send(API.post.create(title: "Fluent", body: "Builder"))
      #expect(created.status == .created)
      #expect(try await client.value(API.post.get(id: created.value.id)) == created.value)

      let deleted = try await client.send(API.post.delete(id: created.value.id))
      #expect(deleted.status == .noContent)
      let gone = await #expect(throws: CourierError.self) { try await client.send(API.post.get(id: created.value.id)) }
      #expect(gone?.userMessage == "Post not found")

      let accepted = try await client.send(APIRequest<EmptyBody>("status/202").expect(202))
      #expect(accepted.status.code == 202)
      let notCreated = await #expect(throws: CourierError.self) {
        try await client.send(APIRequest<Article>("posts/1").expect(.created))
      }
      #expect(notCreated?.kind == .unacceptableStatus)
      #expect(notCreated?.status == .ok)
    }
  }
}
