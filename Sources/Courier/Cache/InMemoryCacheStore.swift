import Foundation

/// Keeps responses in memory, evicting the least recently used when the total size passes `byteLimit`.
///
/// Lookups, writes and each eviction take constant time however many entries are kept: entries sit in a list
/// ordered by use, so the least recently used one is always at its end.
///
/// ```swift
/// let cache = CacheInterceptor(store: InMemoryCacheStore(byteLimit: 20 * 1024 * 1024))
/// ```
public actor InMemoryCacheStore: CacheStore {
  /// An entry and its neighbours in the use order (indices into `nodes`).
  private struct Node {
    var entry: CachedResponse
    var size: Int
    /// When the entry was stored, so variants come back newest first.
    var stored: UInt64
    var older: Int?
    var newer: Int?
  }

  /// The most bytes kept; an entry larger than this is not kept at all.
  public let byteLimit: Int
  /// Nodes by index; `nil` slots are free and listed in `free`.
  private var nodes: [Node?] = []
  private var free: [Int] = []
  /// Key, then variant key, to node index.
  private var index: [String: [String: Int]] = [:]
  private var newest: Int?
  private var oldest: Int?
  private var stores: UInt64 = 0
  /// The bytes in use.
  public private(set) var totalBytes = 0
  /// How many entries are stored.
  public private(set) var count = 0

  /// Creates a store holding at most `byteLimit` bytes (10 MiB by default).
  public init(byteLimit: Int = 10 * 1024 * 1024) {
    self.byteLimit = max(byteLimit, 0)
  }

  /// The variants for `key`, most recently stored first; marks them used.
  public func entries(for key: String) -> [CachedResponse] {
    guard let variants = index[key] else { return [] }
    var found: [(stored: UInt64, entry: CachedResponse)] = []
    found.reserveCapacity(variants.count)
    for slot in variants.values {
      moveToNewest(slot)
      if let node = nodes[slot] { found.append((node.stored, node.entry)) }
    }
    if found.count > 1 { found.sort { $0.stored > $1.stored } }
    return found.map(\.entry)
  }

  /// Stores `entry`, evicting least recently used entries to stay under the limit.
  public func store(_ entry: CachedResponse) {
    let key = entry.key
    let variant = entry.variantKey
    if let existing = index[key]?[variant] { remove(existing) }
    let size = entry.size
    guard size <= byteLimit else { return }
    stores += 1
    let node = Node(entry: entry, size: size, stored: stores, older: newest, newer: nil)
    let slot: Int
    if let reused = free.popLast() {
      slot = reused
      nodes[slot] = node
    } else {
      slot = nodes.count
      nodes.append(node)
    }
    if let newest { nodes[newest]?.newer = slot }
    newest = slot
    if oldest == nil { oldest = slot }
    index[key, default: [:]][variant] = slot
    totalBytes += size
    count += 1
    while totalBytes > byteLimit, let victim = oldest { remove(victim) }
  }

  /// Removes every variant for `key`.
  public func removeEntries(for key: String) {
    for slot in index[key]?.values.map({ $0 }) ?? [] { remove(slot) }
  }

  /// Removes everything.
  public func removeAll() {
    nodes = []
    free = []
    index = [:]
    newest = nil
    oldest = nil
    totalBytes = 0
    count = 0
  }

  private func unlink(_ slot: Int) {
    guard let node = nodes[slot] else { return }
    if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
    if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
    nodes[slot]?.older = nil
    nodes[slot]?.newer = nil
  }

  private func moveToNewest(_ slot: Int) {
    guard newest != slot else { return }
    unlink(slot)
    nodes[slot]?.older = newest
    if let newest { nodes[newest]?.newer = slot }
    newest = slot
    if oldest == nil { oldest = slot }
  }

  private func remove(_ slot: Int) {
    guard let node = nodes[slot] else { return }
    unlink(slot)
    nodes[slot] = nil
    free.append(slot)
    let key = node.entry.key
    index[key]?[node.entry.variantKey] = nil
    if index[key]?.isEmpty == true { index[key] = nil }
    totalBytes -= node.size
    count -= 1
  }
}
