#if canImport(Hummingbird)
/// Counters behind `/flaky`, `/counted` and `/concurrency/probe`, kept by ``DemoState``.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ProbeCounters: Sendable {
  /// Requests per `/flaky/{key}` key, failed ones included.
  private(set) var flakyAttempts: [String: Int] = [:]
  /// Hits per `/counted/{key}` key.
  private(set) var countedHits: [String: Int] = [:]
  /// Probes currently waiting.
  private(set) var inFlight = 0
  /// The most probes ever waiting at once.
  private(set) var maxInFlight = 0

  /// Counts a request to `/flaky/{key}`; returns the key's count including it.
  mutating func recordFlakyAttempt(key: String) -> Int {
    flakyAttempts[key, default: 0] += 1
    return flakyAttempts[key, default: 0]
  }

  /// Counts a hit on `/counted/{key}`; returns the key's count including it.
  mutating func recordHit(key: String) -> Int {
    countedHits[key, default: 0] += 1
    return countedHits[key, default: 0]
  }

  /// A probe starts; returns how many are in flight including it.
  mutating func beginProbe() -> Int {
    inFlight += 1
    maxInFlight = max(maxInFlight, inFlight)
    return inFlight
  }

  /// A probe ends; returns the maximum seen.
  mutating func endProbe() -> Int {
    inFlight = max(0, inFlight - 1)
    return maxInFlight
  }

  /// Forgets attempts and hits; the maximum restarts from the probes still in flight.
  mutating func reset() {
    flakyAttempts = [:]
    countedHits = [:]
    maxInFlight = inFlight
  }
}
#endif
