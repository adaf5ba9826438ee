import Foundation

/// Where ``CacheInterceptor`` keeps responses.
///
/// Courier has ``InMemoryCacheStore`` (LRU by bytes) and, in the CourierSQLiteCache module, a persistent store.
/// A store keeps one entry per key and variant; storing an entry replaces the one with the same key and variant.
/// A store that fails should throw: the cache then behaves as if the entry were absent, and the request goes on.
public protocol CacheStore: Sendable {
  /// Every stored variant for `key`, most recently stored first.
  func entries(for key: String) async throws -> [CachedResponse]
  /// Stores `entry`, replacing the entry with the same key and variant.
  func store(_ entry: CachedResponse) async throws
  /// Removes every variant for `key`.
  func removeEntries(for key: String) async throws
  /// Removes everything.
  func removeAll() async throws
}
