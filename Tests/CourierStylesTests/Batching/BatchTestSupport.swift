import Courier
import CourierStyles
import CourierTestSupport
import Foundation

/// What `/concurrency/probe` reports: probes in flight when it started, and the most ever in flight.
struct BatchProbeReport: Decodable, Sendable, Equatable {
  var inFlight: Int
  var maxInFlight: Int
}

/// What `/counted/{key}` and `/counted/{key}/hits` report.
/// Endpoints of the demo API the batching tests use.
enum BatchEndpoints {
  static func probe(milliseconds: Int) -> Endpoint<BatchProbeReport> {
    .get("/concurrency/probe", query: ["ms": .int(Int64(milliseconds))])
  }

  static func product(_ id: Int) -> Endpoint<Product> {
    .get("/products/\(id)")
  }

  static func slow(milliseconds: Int) -> Endpoint<EmptyBody> {
    .get("/slow", query: ["ms": .int(Int64(milliseconds))])
  }

  static func status(_ code: Int) -> Endpoint<EmptyBody> {
    .get("/status/\(code)")
  }

  static func counted(_ key: String) -> Endpoint<CountedHits> {
    .get("/counted/\(key)")
  }

  static func hits(_ key: String) -> Endpoint<CountedHits> {
    .get("/counted/\(key)/hits")
  }
}
