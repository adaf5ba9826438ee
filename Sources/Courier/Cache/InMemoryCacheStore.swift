import Foundation

/// Keeps responses in memory, evicting the least recently used when the total size passes `byteLimit`.
///
/// ```swift
/// let cache = CacheInterceptor(store: InMemoryCacheStore(byteLimit: 20 * 1024 * 1024))
/// ```
public actor InMemoryCacheStore: CacheStore {
  private struct Slot {
    var entry: CachedResponse
    var lastUse: UInt64
  }

  /// The most bytes kept; an entry larger than this is not kept at all.
  public let byteLimit: Int
  private var slots: [String: [String: Slot]] = [:]
  private var clock: UInt64 = 0
  /// The bytes in use.
  public private(set) var totalBytes = 0

  /// Creates a store holding at most `byteLimit` bytes (10 MiB by default).
  public init(byteLimit: Int = 10 * 1024 * 1024) {
    self.byteLimit = max(byteLimit, 0)
  }

  /// The variants for `key`, newest use first; marks them used.
  public func entries(for key: String) -> [CachedResponse] {
    guard var variants = slots[key] else { return [] }
    clock += 1
    for name in variants.keys { variants[name]?.lastUse = clock }
    slots[key] = variants
    return variants.values.map(\.entry)
  }

  /// Stores `entry`, evicting least recently used entries to stay under the limit.
  public func store(_ entry: CachedResponse) {
    let size = entry.size
    remove(key: entry.key, variant: entry.variantKey)
    guard size <= byteLimit else { return }
    clock += 1
    slots[entry.key, default: [:]][entry.variantKey] = Slot(entry: entry, lastUse: clock)
    totalBytes += size
    while totalBytes > byteLimit, let victim = leastRecentlyUsed() {
      remove(key: victim.key, variant: victim.variant)
    }
  }

  /// Removes every variant for `key`.
  public func removeEntries(for key: String) {
    for variant in slots[key]?.keys.map({ $0 }) ?? [] { remove(key: key, variant: variant) }
  }

  /// Removes everything.
  public func removeAll() {
    slots = [:]
    totalBytes = 0
  }

  /// How many entries are stored.
  public var count: Int { slots.values.reduce(0) { $0 + $1.count } }

  private func remove(key: String, variant: String) {
    guard let slot = slots[key]?.removeValue(forKey: variant) else { return }
    totalBytes -= slot.entry.size
    if slots[key]?.isEmpty == true { slots[key] = nil }
  }

  private func leastRecentlyUsed() -> (key: String, variant: String)? {
    var oldest: (key: String, variant: String, lastUse: UInt64)?
    for (key, variants) in slots {
      for (variant, slot) in variants where slot.lastUse < (oldest?.lastUse ?? .max) {
        oldest = (key, variant, slot.lastUse)
      }
    }
    return oldest.map { ($0.key, $0.variant) }
  }
}
