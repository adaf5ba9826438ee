import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

/// `GET /cache/resource/{key}`: each caching header the query chooses, the body, `fail` and bad parameters.
@Suite struct CacheResourceTests {
  /// Every header a query parameter can add.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static var cachingHeaders: [HTTPField.Name] { [.cacheControl, .eTag, .lastModified, .expires, .age, .vary, .pragma] }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func plainResourceHasNoCachingHeaders() async throws {
    try await TestSupport.withRouter { client in
      let sent = Date()
      let response = try await client.send("/cache/resource/a")
      let received = Date()
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "application/json; charset=utf-8")
      #expect(response.text == #"{"hit":1,"key":"a","vary":{},"version":1}"#)
      for name in Self.cachingHeaders {
        #expect(response.headers[name] == nil, "unexpected \(name)")
      }
      #expect(CacheTestSupport.isBetween(try response.httpDate(.date), sent: sent, received: received))
      let second = try await client.send("/cache/resource/a").decode(CacheResource.self)
      #expect(second == CacheResource(key: "a", version: 1, hit: 2, vary: [:]))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    ("max-age%3D60%2C%20must-revalidate", "max-age=60, must-revalidate"),
    ("max-age=0", "max-age=0"),
    ("no-store", "no-store"),
    ("private,%20max-age=5,%20stale-while-revalidate=30", "private, max-age=5, stale-while-revalidate=30"),
    ("public,s-maxage=600+x", "public,s-maxage=600+x"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func cacheControlIsSentVerbatim(query: String, expected: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/cache/resource/cc?cc=\(query)")
      #expect(response.status == .ok)
      #expect(response.headers[.cacheControl] == expected)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    ("etag=1", #""e-v1""#), ("etag=1&weak=0", #""e-v1""#), ("etag=1&weak=1", #"W/"e-v1""#),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func entityTags(query: String, expected: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/cache/resource/e?\(query)")
      #expect(response.headers[.eTag] == expected)
      #expect(try await client.send("/cache/resource/e?etag=0").headers[.eTag] == nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [(nil, 3_600), (0, 0), (86_400, 86_400)] as [(Int?, Int)])
  func lastModifiedPrecedesTheVersion(ageSeconds: Int?, expectedAge: Int) async throws {
    try await TestSupport.withRouter { client in
      let uri = "/cache/resource/lm?lm=1" + (ageSeconds.map { "&lmAgeSeconds=\($0)" } ?? "")
      let sent = Date()
      let response = try await client.send(uri)
      let received = Date()
      let lastModified = try response.httpDate(.lastModified)
      #expect(
        CacheTestSupport.isBetween(lastModified, sent: sent, received: received, offset: -Double(expectedAge)))
      // Fixed by the version's creation: a later request gets the same value.
      try await Task.sleep(for: .milliseconds(1_100))
      #expect(try await client.send(uri).headers[.lastModified] == response.headers[.lastModified])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [-60, 0, 1, 120, 31_536_000])
  func expiresIsRelativeToDate(seconds: Int) async throws {
    try await TestSupport.withRouter { client in
      let sent = Date()
      let response = try await client.send("/cache/resource/x?expires=\(seconds)")
      let received = Date()
      let date = try response.httpDate(.date)
      // Both come from the same whole second, so the freshness lifetime is exact.
      #expect(try response.httpDate(.expires).timeIntervalSince(date) == Double(seconds))
      #expect(CacheTestSupport.isBetween(date, sent: sent, received: received))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [-3_600, -5, 300])
  func dateSimulatesClockSkew(seconds: Int) async throws {
    try await TestSupport.withRouter { client in
      let sent = Date()
      let response = try await client.send("/cache/resource/d?date=\(seconds)&expires=60")
      let received = Date()
      let date = try response.httpDate(.date)
      #expect(CacheTestSupport.isBetween(date, sent: sent, received: received, offset: Double(seconds)))
      #expect(try response.httpDate(.expires).timeIntervalSince(date) == Double(60 - seconds))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [0, 120, 2_147_483_648])
  func ageIsSentAsGiven(seconds: Int) async throws {
    try await TestSupport.withRouter { client throws in
      #expect(try await client.send("/cache/resource/age?age=\(seconds)").headers[.age] == String(seconds))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func pragmaNoCache() async throws {
    try await TestSupport.withRouter { client throws in
      #expect(try await client.send("/cache/resource/p?pragma=no-cache").headers[.pragma] == "no-cache")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func varyBodiesDifferByAcceptLanguage() async throws {
    try await TestSupport.withRouter { client in
      let uri = "/cache/resource/v?vary=Accept-Language&cc=max-age%3D60"
      let german = try await client.send(uri, headers: [.acceptLanguage: "de"])
      let french = try await client.send(uri, headers: [.acceptLanguage: "fr-CH, fr;q=0.9"])
      let none = try await client.send(uri)
      for response in [german, french, none] {
        #expect(response.headers[.vary] == "Accept-Language")
      }
      #expect(german.text == #"{"hit":1,"key":"v","vary":{"Accept-Language":"de"},"version":1}"#)
      #expect(try french.decode(CacheResource.self).vary == ["Accept-Language": "fr-CH, fr;q=0.9"])
      #expect(none.text == #"{"hit":3,"key":"v","vary":{"Accept-Language":null},"version":1}"#)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func varyListsSeveralHeadersOrStar() async throws {
    try await TestSupport.withRouter { client in
      let headers: HTTPFields = [.acceptLanguage: "en", .accept: "application/json"]
      let both = try await client.send("/cache/resource/v2?vary=Accept-Language,%20Accept", headers: headers)
      #expect(both.headers[.vary] == "Accept-Language, Accept")
      let expected: [String: String?] = ["Accept-Language": "en", "Accept": "application/json"]
      #expect(try both.decode(CacheResource.self).vary == expected)
      let star = try await client.send("/cache/resource/v2?vary=*", headers: headers)
      #expect(star.headers[.vary] == "*")
      #expect(try star.decode(CacheResource.self).vary == [:])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func headIsCountedAndKeepsTheHeaders() async throws {
    try await TestSupport.withRouter { client in
      let head = try await client.send("/cache/resource/h?etag=1&cc=max-age%3D60", method: .head)
      #expect(head.status == .ok)
      #expect(head.body.readableBytes == 0)
      #expect(head.headers[.eTag] == #""h-v1""#)
      #expect(head.headers[.cacheControl] == "max-age=60")
      #expect(try await client.send("/cache/resource/h").decode(CacheResource.self).hit == 2)
      #expect(try await client.cacheHits("h").hits == 2)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    (500, "internal_error"), (501, "not_implemented"), (502, "bad_gateway"), (503, "service_unavailable"),
    (504, "gateway_timeout"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func failAnswersTheStatusWithNoStore(code: Int, errorCode: String) async throws {
    try await TestSupport.withRouter { client in
      let uri = "/cache/resource/f?fail=\(code)&cc=max-age%3D60&etag=1&lm=1"
      let response = try await client.send(uri, headers: [.ifNoneMatch: "*"])
      #expect(response.status.code == code)
      #expect(response.isJSON)
      #expect(response.headers[.cacheControl] == "no-store")
      #expect(response.headers[.eTag] == nil)
      #expect(response.headers[.lastModified] == nil)
      #expect(try response.errorBody() == ErrorBody(code: errorCode, error: "Planned failure \(code) for key 'f'"))
      // Failures reach the origin too; the next success is the second hit.
      #expect(try await client.send("/cache/resource/f").decode(CacheResource.self).hit == 2)
      #expect(try await client.cacheHits("f") == CacheHits(key: "f", hits: 2, notModified: 0, unsafe: 0, version: 1))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func unknownParametersAreIgnored() async throws {
    try await TestSupport.withRouter { client throws in
      #expect(try await client.send("/cache/resource/u?n=2&whatever").status == .ok)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    ("expires=soon", "expires"), ("expires=1.5", "expires"), ("expires=", "expires"),
    ("expires=99999999999999999999", "expires"), ("expires=315360001", "expires"), ("date=yesterday", "date"),
    ("age=-1", "age"), ("age=2147483649", "age"), ("lm=1&lmAgeSeconds=-5", "lmAgeSeconds"),
    ("lmAgeSeconds=60", "lmAgeSeconds"), ("lm=yes", "lm"), ("etag=true", "etag"), ("weak=1", "weak"),
    ("etag=0&weak=1", "weak"), ("fail=200", "fail"), ("fail=505", "fail"), ("fail=499", "fail"),
    ("fail=x", "fail"), ("pragma=cache", "pragma"), ("pragma=", "pragma"), ("cc=", "cc"), ("cc=a%0Ab", "cc"),
    ("cc=%20max-age=1", "cc"), ("vary=", "vary"), ("vary=Accept%20Language", "vary"), ("vary=a,,b", "vary"),
    ("vary=*,Accept", "vary"), ("vary=Accept%0D%0AX:1", "vary"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func badParametersAre400AndNotCounted(query: String, parameter: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/cache/resource/bad?\(query)")
      #expect(response.status == .badRequest)
      #expect(response.isJSON)
      let body = try response.errorBody()
      #expect(body.code == "invalid_parameter")
      #expect(body.parameter == parameter)
      #expect(try await client.cacheHits("bad").hits == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func keysThatCannotBeETagsAre400WithETagOnly() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send(#"/cache/resource/a"b?etag=1"#)
      #expect(response.status == .badRequest)
      #expect(try response.errorBody().parameter == "key")
      #expect(try await client.send(#"/cache/resource/a"b"#).status == .ok)
      let longKey = String(repeating: "k", count: PathParameter.maxKeyLength + 1)
      #expect(try await client.send("/cache/resource/\(longKey)").status == .badRequest)
      #expect(try await client.send("/cache/hits/\(longKey)").status == .badRequest)
    }
  }
}
