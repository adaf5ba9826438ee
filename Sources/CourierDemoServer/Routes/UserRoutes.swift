#if canImport(Hummingbird)
import Foundation
import Hummingbird

/// `GET/PATCH /users/me`, `GET /users/{id}` and `POST /signup`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct UserRoutes: Sendable {
  /// The server state.
  let state: DemoState

  /// Longest accepted display name.
  static let maxNameLength = 100
  /// Shortest accepted password.
  static let minPasswordLength = 8

  /// The routes.
  var routes: [Route] {
    [
      Route(method: .get, pattern: "/users/me", handler: me),
      Route(method: .patch, pattern: "/users/me", handler: updateMe),
      Route(method: .get, pattern: "/users/{id}", handler: userByID),
      Route(method: .post, pattern: "/signup", handler: signUp),
    ]
  }

  /// The bearer token's user.
  @Sendable func me(_ request: Request, _ context: DemoContext) async throws -> Response {
    try JSONResponse.make(try await BearerAuth(state: state).user(for: request))
  }

  /// `{"name"?}` → the updated user; 400 `validation_failed` for an empty or too long name.
  @Sendable func updateMe(_ request: Request, _ context: DemoContext) async throws -> Response {
    let user = try await BearerAuth(state: state).user(for: request)
    let update = try await JSONBody.decode(UpdateUserRequest.self, from: request)
    guard let name = update.name else {
      return try JSONResponse.make(user)
    }
    if let problem = Self.nameProblem(name) {
      throw APIError.validationFailed([problem], status: .badRequest)
    }
    guard let updated = await state.rename(userID: user.id, to: name) else {
      throw APIError.unauthorized(code: "unauthorized", "The user no longer exists")
    }
    return try JSONResponse.make(updated)
  }

  /// Any user by id (public, so `Location` headers from signup resolve).
  @Sendable func userByID(_ request: Request, _ context: DemoContext) async throws -> Response {
    let id = try PathParameter.int("id", in: context)
    guard let user = await state.user(id: id) else {
      throw APIError.notFound("User \(id) not found")
    }
    return try JSONResponse.make(user)
  }

  /// `{"email","password","name"}` → 201 user with `Location`; 409 `email_taken`; 422 `validation_failed`.
  @Sendable func signUp(_ request: Request, _ context: DemoContext) async throws -> Response {
    let body = try await JSONBody.decode(SignupRequest.self, from: request)
    var problems: [String] = []
    if !body.email.contains("@") {
      problems.append("email must be a valid email address")
    }
    if body.password.count < Self.minPasswordLength {
      problems.append("password must be at least \(Self.minPasswordLength) characters")
    }
    if let problem = Self.nameProblem(body.name) {
      problems.append(problem)
    }
    guard problems.isEmpty else {
      throw APIError.validationFailed(problems)
    }
    guard let user = await state.signUp(email: body.email, password: body.password, name: body.name) else {
      throw APIError(status: .conflict, code: "email_taken", message: "An account with this email already exists")
    }
    return try JSONResponse.make(user, status: .created, headers: [.location: "/users/\(user.id)"])
  }

  /// Why `name` is not acceptable, or `nil`.
  static func nameProblem(_ name: String) -> String? {
    if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      return "name must not be empty"
    }
    if name.count > maxNameLength {
      return "name must be at most \(maxNameLength) characters"
    }
    return nil
  }
}
#endif
