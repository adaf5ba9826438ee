#if canImport(Hummingbird)
import Foundation

/// A user as the API shows it: `{"id","email","name","createdAt"}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct User: Codable, Sendable, Equatable {
  /// Numeric id.
  var id: Int
  /// Email address, unique (case-insensitively).
  var email: String
  /// Display name.
  var name: String
  /// Creation time, encoded as ISO 8601 with `Z`.
  var createdAt: Date
}

/// A stored user together with the password the demo compares against (plain text: it is a demo).
@available(macOS 14, iOS 17, tvOS 17, *)
struct UserAccount: Sendable {
  /// The public part.
  var user: User
  /// The password in plain text.
  var password: String
}
#endif
