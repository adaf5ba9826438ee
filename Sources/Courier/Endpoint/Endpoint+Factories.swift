import Foundation
import HTTPTypes

extension Endpoint {
  /// A `GET`, optionally with a hand-written query: `.get("/products", query: ["page": 2])`.
  public static func get(_ path: String, query: QueryParameters = QueryParameters()) -> Endpoint {
    Endpoint(path, method: .get).query(query)
  }

  /// A `HEAD`.
  public static func head(_ path: String) -> Endpoint {
    Endpoint(path, method: .head)
  }

  /// A `DELETE`.
  public static func delete(_ path: String) -> Endpoint {
    Endpoint(path, method: .delete)
  }

  /// A `POST` without a body.
  public static func post(_ path: String) -> Endpoint {
    Endpoint(path, method: .post)
  }

  /// A `POST` with a JSON body.
  public static func post(_ path: String, body: some Encodable & Sendable) -> Endpoint {
    Endpoint(path, method: .post).body(json: body)
  }

  /// A `PUT` with a JSON body.
  public static func put(_ path: String, body: some Encodable & Sendable) -> Endpoint {
    Endpoint(path, method: .put).body(json: body)
  }

  /// A `PATCH` with a JSON body.
  public static func patch(_ path: String, body: some Encodable & Sendable) -> Endpoint {
    Endpoint(path, method: .patch).body(json: body)
  }

  /// A `PUT` without a body.
  public static func put(_ path: String) -> Endpoint {
    Endpoint(path, method: .put)
  }

  /// A `PATCH` without a body.
  public static func patch(_ path: String) -> Endpoint {
    Endpoint(path, method: .patch)
  }

  /// An `OPTIONS`.
  public static func options(_ path: String) -> Endpoint {
    Endpoint(path, method: .options)
  }
}
