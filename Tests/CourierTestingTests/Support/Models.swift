import Courier
import CourierTestSupport
import Foundation

struct User: Codable, Sendable, Equatable {
  var id: Int
  var name: String
}

struct Post: Codable, Sendable, Equatable {
  var id: Int
  var title: String
  var body: String
}

struct NewPost: Codable, Sendable, Equatable {
  var title: String
  var body: String
}

let exampleBaseURL = URL(string: "https://api.example.test/v1")!
