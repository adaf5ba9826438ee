#if canImport(Hummingbird)
import Foundation
import Hummingbird

/// The caching headers of one `/cache/resource/{key}` response, derived from the version served, the query and the
/// request's time.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheResourceHeaders: Sendable, Equatable {
  /// `"<key>-v<version>"` (weak: `W/"…"`), with `etag=1`.
  var entityTag: EntityTag?
  /// The version's creation time minus `lmAgeSeconds`, with `lm=1`.
  var lastModified: Date?
  /// `now + expires`, with `expires`.
  var expires: Date?
  /// `now + date`.
  var date: Date
  /// The query the headers come from.
  var options: CacheResourceOptions

  /// Derives the headers; `now` should be a whole second, so `Expires` minus `Date` is exactly `expires - date`.
  init(key: String, version: CacheOrigin.Version, options: CacheResourceOptions, now: Date) {
    entityTag = options.entityTag.map { EntityTag(opaque: "\(key)-v\(version.number)", isWeak: $0 == .weak) }
    lastModified = options.lastModifiedAge.map { version.createdAt.addingTimeInterval(-Double($0)) }
    expires = options.expires.map { now.addingTimeInterval(Double($0)) }
    date = now.addingTimeInterval(Double(options.dateOffset))
    self.options = options
  }

  /// The headers a 304 repeats from the 200 (RFC 9110 §15.4.5): `Cache-Control`, `Date`, `ETag`, `Expires`,
  /// `Last-Modified` and `Vary`.
  var notModifiedFields: HTTPFields {
    var fields: HTTPFields = [:]
    if let cacheControl = options.cacheControl {
      fields[.cacheControl] = cacheControl
    }
    DateOverride.set(HTTPDate.format(date), in: &fields)
    if let entityTag {
      fields[.eTag] = entityTag.description
    }
    if let expires {
      fields[.expires] = HTTPDate.format(expires)
    }
    if let lastModified {
      fields[.lastModified] = HTTPDate.format(lastModified)
    }
    if let vary = options.vary {
      fields[.vary] = vary.value
    }
    return fields
  }

  /// The headers of a 200: those of a 304 plus `Age` and `Pragma`.
  var fields: HTTPFields {
    var fields = notModifiedFields
    if let age = options.age {
      fields[.age] = String(age)
    }
    if options.pragmaNoCache {
      fields[.pragma] = "no-cache"
    }
    return fields
  }
}
#endif
