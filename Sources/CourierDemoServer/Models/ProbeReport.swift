#if canImport(Hummingbird)
/// `GET /concurrency/probe`: `{"inFlight": 3, "maxInFlight": 4}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ProbeReport: Codable, Sendable, Equatable {
  /// Probes in flight when this one started, itself included.
  var inFlight: Int
  /// The most probes ever in flight at once (since start or the last reset), read when this one finished.
  var maxInFlight: Int
}
#endif
