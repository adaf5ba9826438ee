import Foundation
import HTTPTypes

/// The directives of a `Cache-Control` field (RFC 9111 §5.2), request or response. Unknown directives are ignored;
/// names are case-insensitive; values may be quoted.
struct CacheControl: Sendable, Hashable {
  /// `max-age=N`.
  var maxAge: TimeInterval?
  /// `s-maxage=N` (shared caches; parsed, not used by a private cache).
  var sharedMaxAge: TimeInterval?
  /// `max-stale` (`.infinity` without a value).
  var maxStale: TimeInterval?
  /// `min-fresh=N`.
  var minFresh: TimeInterval?
  /// `no-cache`.
  var noCache = false
  /// `no-store`.
  var noStore = false
  /// `must-revalidate` (or `proxy-revalidate`, which a private cache may treat alike).
  var mustRevalidate = false
  /// `private`.
  var isPrivate = false
  /// `public`.
  var isPublic = false
  /// `immutable` (RFC 8246).
  var immutable = false
  /// `only-if-cached`.
  var onlyIfCached = false
  /// `stale-while-revalidate=N` (RFC 5861).
  var staleWhileRevalidate: TimeInterval?
  /// `stale-if-error=N` (RFC 5861).
  var staleIfError: TimeInterval?
  /// `must-understand` (RFC 9111 §5.2.2.3): store only if the cache implements the status code's caching rules,
  /// and then despite `no-store`.
  var mustUnderstand = false

  /// No directives.
  init() {}

  /// Parses every `Cache-Control` field of `fields`.
  init(_ fields: HTTPFields) {
    self.init()
    for value in fields[values: .cacheControl] { parse(value) }
  }

  /// Parses one field value: `max-age=60, no-cache, private="Set-Cookie"`.
  init(parsing value: String) {
    self.init()
    parse(value)
  }

  private mutating func parse(_ value: String) {
    var value = value
    value.withUTF8 { bytes in
      var start = 0
      var quoted = false
      for index in 0..<bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") { quoted.toggle() }
        if byte == UInt8(ascii: ","), !quoted {
          apply(UnsafeBufferPointer(rebasing: bytes[start..<index]))
          start = index + 1
        }
      }
      apply(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
    }
  }

  /// Applies one directive, `name` or `name=argument`, with spaces around either.
  private mutating func apply(_ directive: UnsafeBufferPointer<UInt8>) {
    let equals = directive.firstIndex(of: UInt8(ascii: "="))
    let name = Self.trimmed(UnsafeBufferPointer(rebasing: directive[..<(equals ?? directive.count)]))
    guard !name.isEmpty, let known = Directive(name) else { return }
    var argument: UnsafeBufferPointer<UInt8>?
    if let equals {
      var text = Self.trimmed(UnsafeBufferPointer(rebasing: directive[(equals + 1)...]))
      while let first = text.first, first == UInt8(ascii: "\"") { text = UnsafeBufferPointer(rebasing: text[1...]) }
      while let last = text.last, last == UInt8(ascii: "\"") { text = UnsafeBufferPointer(rebasing: text.dropLast()) }
      argument = text
    }
    let seconds = argument.flatMap(Self.integer).map { TimeInterval(max($0, 0)) }
    switch known {
    case .maxAge: maxAge = seconds ?? maxAge
    case .sharedMaxAge: sharedMaxAge = seconds ?? sharedMaxAge
    case .maxStale: maxStale = argument == nil ? .infinity : (seconds ?? maxStale)
    case .minFresh: minFresh = seconds ?? minFresh
    case .noCache: noCache = true
    case .noStore: noStore = true
    case .mustRevalidate: mustRevalidate = true
    case .isPrivate: isPrivate = true
    case .isPublic: isPublic = true
    case .immutable: immutable = true
    case .onlyIfCached: onlyIfCached = true
    case .staleWhileRevalidate: staleWhileRevalidate = seconds ?? staleWhileRevalidate
    case .staleIfError: staleIfError = seconds ?? staleIfError
    case .mustUnderstand: mustUnderstand = true
    }
  }

  /// Without leading and trailing spaces and tabs.
  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var lower = 0
    var upper = bytes.count
    while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
    while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") { upper -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[lower..<upper])
  }

  /// A decimal integer with an optional sign, as `Int(_:)` reads it; `nil` when malformed or out of range.
  private static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    var negative = false
    if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
      negative = first == UInt8(ascii: "-")
      index = 1
    }
    guard index < bytes.count else { return nil }
    var value = 0
    while index < bytes.count {
      let byte = bytes[index]
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let digit = Int(byte - UInt8(ascii: "0"))
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowAgain) =
        negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
      guard !overflow, !overflowAgain else { return nil }
      value = sum
      index += 1
    }
    return value
  }

  /// The directives Courier understands, named case-insensitively.
  private enum Directive: CaseIterable {
    case maxAge, sharedMaxAge, maxStale, minFresh, noCache, noStore, mustRevalidate, isPrivate, isPublic
    case immutable, onlyIfCached, staleWhileRevalidate, staleIfError, mustUnderstand

    static let names: [(name: [UInt8], directive: Directive)] =
      ([

        ("max-age", .maxAge), ("s-maxage", .sharedMaxAge), ("max-stale", .maxStale), ("min-fresh", .minFresh),
        ("no-cache", .noCache), ("no-store", .noStore), ("must-revalidate", .mustRevalidate),
        ("proxy-revalidate", .mustRevalidate), ("private", .isPrivate), ("public", .isPublic),
        ("immutable", .immutable), ("only-if-cached", .onlyIfCached),
        ("stale-while-revalidate", .staleWhileRevalidate), ("stale-if-error", .staleIfError),
        ("must-understand", .mustUnderstand),
      ] as [(String, Directive)]).map { (Array($0.0.utf8), $0.1) }

    init?(_ name: UnsafeBufferPointer<UInt8>) {
      for (candidate, directive) in Self.names where candidate.count == name.count {
        var equal = true
        for index in 0..<name.count where Self.lowercased(name[index]) != candidate[index] {
          equal = false
          break
        }
        if equal {
          self = directive
          return
        }
      }
      return nil
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
      byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
  }
}
