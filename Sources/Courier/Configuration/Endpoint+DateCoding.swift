import Foundation

extension Endpoint {
  /// Reads and writes this call's JSON dates with `strategy`, over the model's and the client's strategies.
  ///
  /// ```swift
  /// let events = Endpoint<[Event]>.get("/legacy/events").dateCodingStrategy(.secondsSince1970)
  /// ```
  public func dateCodingStrategy(_ strategy: DateCodingStrategy) -> Endpoint {
    with { $0.dateCodingStrategy = strategy }
  }
}
