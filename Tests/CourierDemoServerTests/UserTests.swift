import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

@Suite struct UserTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func meRequiresBearerToken() async throws {
    try await TestSupport.withRouter { client in
      let missing = try await client.send("/users/me")
      #expect(missing.status == .unauthorized)
      #expect(missing.headers[.wwwAuthenticate] == "Bearer")
      #expect(missing.isJSON)
      #expect(try missing.errorBody().code == "unauthorized")

      let invalid = try await client.send("/users/me", headers: TestSupport.bearer("at_not-a-token"))
      #expect(invalid.status == .unauthorized)
      #expect(invalid.headers[.wwwAuthenticate] == "Bearer")
      #expect(try invalid.errorBody().code == "unauthorized")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func meReturnsTheDemoUser() async throws {
    try await TestSupport.withRouter { client in
      let pair = try await client.loginDemoUser()
      let response = try await client.send("/users/me", headers: TestSupport.bearer(pair.accessToken))
      #expect(response.status == .ok)
      #expect(response.text.contains(#""createdAt":"2024-01-15T09:30:00Z""#))
      let user = try response.decode(User.self)
      #expect(user.id == 1)
      #expect(user.email == "demo@courier.dev")
      #expect(user.name == "Demo User")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func patchMeRenames() async throws {
    try await TestSupport.withRouter { client in
      let headers = TestSupport.bearer(try await client.loginDemoUser().accessToken)
      let renamed = try await client.sendJSON("/users/me", method: .patch, headers: headers, #"{"name":"Renamed"}"#)
      #expect(renamed.status == .ok)
      #expect(try renamed.decode(User.self).name == "Renamed")
      #expect(try await client.send("/users/me", headers: headers).decode(User.self).name == "Renamed")

      let unchanged = try await client.sendJSON("/users/me", method: .patch, headers: headers, "{}")
      #expect(try unchanged.decode(User.self).name == "Renamed")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    (#"{"name":""}"#, "validation_failed"),
    (#"{"name":"   "}"#, "validation_failed"),
    (#"{"name":"\#(String(repeating: "x", count: 101))"}"#, "validation_failed"),
    (#"{"name":42}"#, "invalid_body"),
    (#"{"name":"#, "invalid_json"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func patchMeValidation(body: String, code: String) async throws {
    try await TestSupport.withRouter { client in
      let headers = TestSupport.bearer(try await client.loginDemoUser().accessToken)
      let response = try await client.sendJSON("/users/me", method: .patch, headers: headers, body)
      #expect(response.status == .badRequest)
      #expect(try response.errorBody().code == code)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func patchMeAcceptsHundredCharacters() async throws {
    try await TestSupport.withRouter { client in
      let headers = TestSupport.bearer(try await client.loginDemoUser().accessToken)
      let name = String(repeating: "é", count: 100)
      let response = try await client.sendJSON("/users/me", method: .patch, headers: headers, #"{"name":"\#(name)"}"#)
      #expect(response.status == .ok)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func signupCreatesAUserWhoCanLogIn() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.sendJSON(
        "/signup",
        #"{"email":"new@courier.dev","password":"longenough","name":"New Person"}"#
      )
      #expect(response.status == .created)
      let user = try response.decode(User.self)
      #expect(user.id == 2)
      #expect(user.email == "new@courier.dev")
      #expect(response.headers[.location] == "/users/2")
      #expect(try await client.send("/users/2").decode(User.self) == user)

      let login = try await client.sendJSON("/auth/login", #"{"email":"new@courier.dev","password":"longenough"}"#)
      #expect(login.status == .ok)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func signupWithTakenEmailIs409() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.sendJSON(
        "/signup",
        #"{"email":"DEMO@courier.dev","password":"longenough","name":"Copy"}"#
      )
      #expect(response.status == .conflict)
      #expect(
        try response.errorBody()
          == ErrorBody(code: "email_taken", error: "An account with this email already exists")
      )
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func signupValidationIs422WithDetails() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.sendJSON("/signup", #"{"email":"not-an-email","password":"short","name":"X"}"#)
      #expect(response.status == .unprocessableContent)
      let error = try response.errorBody()
      #expect(error.code == "validation_failed")
      #expect(error.details?.contains("password must be at least 8 characters") == true)
      #expect(error.details?.contains { $0.hasPrefix("email") } == true)
      #expect(error.details?.count == 2)

      let missing = try await client.sendJSON("/signup", #"{"email":"a@b.c"}"#)
      #expect(missing.status == .badRequest)
    }
  }
}
