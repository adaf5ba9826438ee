// The types the samples take for granted.
import Courier
import Foundation

struct User: Codable, Sendable, Equatable {
  var id: Int
  var name: String
}

struct Product: Codable, Sendable {
  var id: Int
  var name: String
}

struct ProductPage: Codable, Sendable {
  var items: [Product]
}

struct Signup: Codable, Sendable {
  var email = ""
  var password = ""
  var name = ""
}

struct Order: Codable, Sendable {
  var items: [Int] = []
}

struct UploadReport: Codable, Sendable {
  var totalBytes: Int
}

struct Event: Codable, Sendable {
  var index: Int
}

struct Tokens: Codable, Sendable {
  var accessToken: String
  var refreshToken: String
}

struct Feed: Codable, Sendable {
  var items: [String] = []
}

/// A text field's stand-in.
struct SearchField {
  var text: String?
}
