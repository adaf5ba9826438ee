import Courier

/// How ``Courier/APIClient/values(_:_:_:mode:)`` sends the endpoints of a batch: one after another, or all at once.
///
/// ```swift
/// // Sequential (the default): the profile is fetched only after the settings arrived.
/// let (settings, profile) = try await client.values(settingsEndpoint, profileEndpoint)
///
/// // Concurrent: both are in flight together; the first failure cancels the other.
/// let (user, posts) = try await client.values(userEndpoint, postsEndpoint, mode: .concurrent)
/// ```
///
/// Choose `.sequential` when the server should see the calls in order or when you want to spare it; choose
/// `.concurrent` when the calls are independent and latency matters.
public struct BatchMode: Sendable, Hashable, CustomStringConvertible {
  enum Base: String, Sendable, Hashable {
    case sequential, concurrent
  }

  let base: Base

  /// One call at a time, in argument order; the first failure stops the batch before the next call is sent.
  public static let sequential = BatchMode(base: .sequential)
  /// Every call at once; the first failure cancels the calls still in flight and is thrown.
  public static let concurrent = BatchMode(base: .concurrent)

  /// The mode's name: `sequential` or `concurrent`.
  public var description: String { base.rawValue }
}
