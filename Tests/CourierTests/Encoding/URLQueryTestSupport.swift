import CourierTestSupport
import Foundation
import Testing

@testable import Courier

/// Joins items as `name=value&...` without percent-encoding, so expectations stay readable.
func joinedUnescaped(_ items: [URLQueryItem]) -> String {
  items.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }.joined(separator: "&")
}

/// Encodes a value and renders it with `joinedUnescaped(_:)`.
@_disfavoredOverload
func unescapedQuery(_ value: some Encodable, _ encoder: URLQueryEncoder = URLQueryEncoder()) throws -> String {
  joinedUnescaped(try encoder.encode(value))
}

/// Encodes a hand-written query and renders it with `joinedUnescaped(_:)`.
func unescapedQuery(_ query: QueryParameters, _ encoder: URLQueryEncoder = URLQueryEncoder()) throws -> String {
  joinedUnescaped(try encoder.encode(query))
}

/// Runs `body`, requires it to throw `EncodingError.invalidValue`, and returns the value and context.
func requireInvalidValue(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Any
) throws -> (value: Any, context: EncodingError.Context) {
  let error = try #require(throws: EncodingError.self, sourceLocation: sourceLocation) { _ = try body() }
  guard case .invalidValue(let value, let context) = error else {
    Issue.record("expected EncodingError.invalidValue, got \(error)", sourceLocation: sourceLocation)
    throw error
  }
  return (value, context)
}

/// The string values of a coding path.
func pathStrings(_ path: [any CodingKey]) -> [String] {
  path.map(\.stringValue)
}

/// The integer values of a coding path (`nil` for keys without one).
func pathInts(_ path: [any CodingKey]) -> [Int?] {
  path.map(\.intValue)
}

/// A fixed instant: 2024-05-01T12:00:00Z.
let queryTestNoon = Date(timeIntervalSince1970: 1_714_564_800)

/// An error for closures that should fail.
struct QueryTestFailure: Error, Equatable {
  var reason: String
}
