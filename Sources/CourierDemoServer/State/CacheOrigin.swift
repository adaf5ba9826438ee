#if canImport(Hummingbird)
import Foundation

/// Versions and counters behind `/cache/resource/{key}` and `/cache/hits/{key}`, kept by ``DemoState``.
///
/// Every key starts at version 1 (created when first read); each successful unsafe request makes a new one.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheOrigin: Sendable {
  /// One version of a key's resource.
  struct Version: Sendable, Equatable {
    /// 1 until the first successful unsafe request, then one more per such request.
    var number: Int
    /// When the version was created, in whole seconds; a key's versions are created at least a second apart, so
    /// a `Last-Modified` derived from it always moves forward.
    var createdAt: Date
  }

  /// What reading a key did.
  struct Read: Sendable, Equatable {
    /// The version served.
    var version: Version
    /// The read's number among the key's reads, this one included.
    var hit: Int
    /// Whether it was answered with 304 Not Modified.
    var notModified: Bool
  }

  /// Requests that reached the origin for one key.
  struct Counters: Sendable, Equatable {
    /// `GET` and `HEAD` requests, whatever their status (304 and `fail` included).
    var hits = 0
    /// Those answered with 304.
    var notModified = 0
    /// `POST`, `PUT`, `PATCH` and `DELETE` requests, whatever their status.
    var unsafe = 0
  }

  private var versions: [String: Version] = [:]
  private var counters: [String: Counters] = [:]

  /// Counts a read of `key` at `now`; `isNotModified` decides, given the current version, whether it gets a 304.
  mutating func read(key: String, now: Date, isNotModified: (Version) -> Bool) -> Read {
    let version = versions[key] ?? Version(number: 1, createdAt: Self.wholeSecond(now))
    versions[key] = version
    let notModified = isNotModified(version)
    counters[key, default: Counters()].hits += 1
    if notModified {
      counters[key, default: Counters()].notModified += 1
    }
    return Read(version: version, hit: counters[key, default: Counters()].hits, notModified: notModified)
  }

  /// Counts an unsafe request to `key` at `now`, making a new version when `bumpsVersion`; returns the version
  /// current afterwards.
  mutating func write(key: String, bumpsVersion: Bool, now: Date) -> Version {
    counters[key, default: Counters()].unsafe += 1
    let current = versions[key]
    guard bumpsVersion else {
      return current ?? Version(number: 1, createdAt: Self.wholeSecond(now))
    }
    var createdAt = Self.wholeSecond(now)
    if let current, createdAt <= current.createdAt {
      createdAt = current.createdAt.addingTimeInterval(1)
    }
    let next = Version(number: (current?.number ?? 1) + 1, createdAt: createdAt)
    versions[key] = next
    return next
  }

  /// The counters of `key` and its current version number.
  func report(key: String) -> (counters: Counters, version: Int) {
    (counters[key, default: Counters()], versions[key]?.number ?? 1)
  }

  private static func wholeSecond(_ date: Date) -> Date {
    Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
  }
}
#endif
