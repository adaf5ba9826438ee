import Foundation
import HTTPTypes

/// The directives of a `Cache-Control` field (RFC 9111 §5.2), request or response. Unknown directives are ignored;
/// names are case-insensitive; values may be quoted.
public struct CacheControl: Sendable, Hashable {
  /// `max-age=N`.
  public var maxAge: TimeInterval?
  /// `s-maxage=N` (shared caches; parsed, not used by a private cache).
  public var sharedMaxAge: TimeInterval?
  /// `max-stale` (`.infinity` without a value).
  public var maxStale: TimeInterval?
  /// `min-fresh=N`.
  public var minFresh: TimeInterval?
  /// `no-cache`.
  public var noCache = false
  /// `no-store`.
  public var noStore = false
  /// `must-revalidate` (or `proxy-revalidate`, which a private cache may treat alike).
  public var mustRevalidate = false
  /// `private`.
  public var isPrivate = false
  /// `public`.
  public var isPublic = false
  /// `immutable` (RFC 8246).
  public var immutable = false
  /// `only-if-cached`.
  public var onlyIfCached = false
  /// `stale-while-revalidate=N` (RFC 5861).
  public var staleWhileRevalidate: TimeInterval?
  /// `stale-if-error=N` (RFC 5861).
  public var staleIfError: TimeInterval?

  /// No directives.
  public init() {}

  /// Parses every `Cache-Control` field of `fields`.
  public init(_ fields: HTTPFields) {
    self.init()
    for value in fields[values: .cacheControl] { parse(value) }
  }

  /// Parses one field value: `max-age=60, no-cache, private="Set-Cookie"`.
  public init(parsing value: String) {
    self.init()
    parse(value)
  }

  private mutating func parse(_ value: String) {
    for directive in Self.split(value) {
      let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard let name = parts.first?.lowercased(), !name.isEmpty else { continue }
      let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
      let seconds = argument.flatMap { Int($0) }.map { TimeInterval(max($0, 0)) }
      switch name {
      case "max-age": maxAge = seconds ?? maxAge
      case "s-maxage": sharedMaxAge = seconds ?? sharedMaxAge
      case "max-stale": maxStale = argument == nil ? .infinity : (seconds ?? maxStale)
      case "min-fresh": minFresh = seconds ?? minFresh
      case "no-cache": noCache = true
      case "no-store": noStore = true
      case "must-revalidate", "proxy-revalidate": mustRevalidate = true
      case "private": isPrivate = true
      case "public": isPublic = true
      case "immutable": immutable = true
      case "only-if-cached": onlyIfCached = true
      case "stale-while-revalidate": staleWhileRevalidate = seconds ?? staleWhileRevalidate
      case "stale-if-error": staleIfError = seconds ?? staleIfError
      default: continue
      }
    }
  }

  /// Splits on commas that are not inside a quoted string.
  static func split(_ value: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var quoted = false
    for character in value {
      if character == "\"" { quoted.toggle() }
      if character == ",", !quoted {
        parts.append(current.trimmingCharacters(in: .whitespaces))
        current = ""
      } else {
        current.append(character)
      }
    }
    parts.append(current.trimmingCharacters(in: .whitespaces))
    return parts.filter { !$0.isEmpty }
  }
}
