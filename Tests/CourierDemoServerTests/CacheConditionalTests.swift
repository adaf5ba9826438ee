import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

/// Conditional `GET`/`HEAD` of `/cache/resource/{key}`: `If-None-Match` and `If-Modified-Since`.
@Suite struct CacheConditionalTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func matchingETagIs304WithTheCachingHeaders() async throws {
    try await TestSupport.withRouter { client in
      let uri = "/cache/resource/c?etag=1&lm=1&cc=max-age%3D60&expires=60&vary=Accept&age=5&pragma=no-cache"
      let full = try await client.send(uri)
      #expect(full.status == .ok)
      let etag = try #require(full.headers[.eTag])
      #expect(etag == #""c-v1""#)
      let revalidated = try await client.send(uri, headers: [.ifNoneMatch: etag])
      let received = Date()
      #expect(revalidated.status == .notModified)
      #expect(revalidated.body.readableBytes == 0)
      for name in [HTTPField.Name.eTag, .cacheControl, .lastModified, .vary] {
        #expect(revalidated.headers[name] == full.headers[name], "\(name) differs")
      }
      // Date and Expires are those of the 304's own time.
      let date = try revalidated.httpDate(.date)
      #expect(CacheTestSupport.isBetween(date, sent: try full.httpDate(.date), received: received))
      #expect(try revalidated.httpDate(.expires).timeIntervalSince(date) == 60)
      // Only the 200 carries Age, Pragma and a content type.
      for name in [HTTPField.Name.age, .pragma, .contentType] {
        #expect(revalidated.headers[name] == nil, "unexpected \(name)")
      }
      #expect(try await client.cacheHits("c") == CacheHits(key: "c", hits: 2, notModified: 1, unsafe: 0, version: 1))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    // (If-None-Match, weak=1 on the resource, 304 expected)
    (#""k-v1""#, false, true),
    (#""k-v1""#, true, true),
    (#"W/"k-v1""#, false, true),
    (#"W/"k-v1""#, true, true),
    (#""k-v2""#, false, false),
    (#"W/"k-v2""#, true, false),
    (#""K-V1""#, false, false),
    ("k-v1", false, false),
    (#"w/"k-v1""#, false, false),
    (#""k-v1"x"#, false, false),
    ("", false, false),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func ifNoneMatchUsesWeakComparison(ifNoneMatch: String, weak: Bool, notModified: Bool) async throws {
    try await TestSupport.withRouter { client in
      let uri = "/cache/resource/k?etag=1&weak=\(weak ? 1 : 0)"
      let response = try await client.send(uri, headers: [.ifNoneMatch: ifNoneMatch])
      #expect(response.status == (notModified ? .notModified : .ok))
      #expect(response.headers[.eTag] == (weak ? #"W/"k-v1""# : #""k-v1""#))
      let hits = try await client.cacheHits("k")
      #expect(hits.hits == 1 && hits.notModified == (notModified ? 1 : 0))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: ["*", " * ", #""x", *"#])
  func starMatchesWithOrWithoutETag(ifNoneMatch: String) async throws {
    try await TestSupport.withRouter { client in
      let tagged = try await client.send("/cache/resource/s?etag=1", headers: [.ifNoneMatch: ifNoneMatch])
      #expect(tagged.status == .notModified)
      #expect(tagged.headers[.eTag] == #""s-v1""#)
      let untagged = try await client.send("/cache/resource/s", headers: [.ifNoneMatch: ifNoneMatch])
      #expect(untagged.status == .notModified)
      #expect(untagged.headers[.eTag] == nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    ([#""a", W/"l-v1""#], true),
    ([#""a","l-v1",W/"b""#], true),
    ([#""a""#, #""l-v1""#], true),
    ([#""a,b", "l-v1""#], true),
    ([#"junk, "l-v1""#], true),
    ([#""a", "b""#], false),
    ([#""a""#, #"W/"b""#], false),
    ([#""l-v1, "a""#], false),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func listsMatchAnyMember(fields: [String], notModified: Bool) async throws {
    try await TestSupport.withRouter { client in
      let headers = HTTPFields(fields.map { HTTPField(name: .ifNoneMatch, value: $0) })
      let response = try await client.send("/cache/resource/l?etag=1", headers: headers)
      #expect(response.status == (notModified ? .notModified : .ok))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func ifModifiedSinceComparesWithLastModified() async throws {
    try await TestSupport.withRouter { client in
      let uri = "/cache/resource/m?lm=1&lmAgeSeconds=600"
      let full = try await client.send(uri)
      let lastModified = try full.httpDate(.lastModified)
      let cases: [(since: Date, notModified: Bool)] = [
        (lastModified, true),
        (lastModified.addingTimeInterval(10), true),
        (lastModified.addingTimeInterval(-1), false),
        (Date(timeIntervalSince1970: 0), false),
      ]
      for (since, notModified) in cases {
        let response = try await client.send(uri, headers: [.ifModifiedSince: HTTPDate.format(since)])
        #expect(response.status == (notModified ? .notModified : .ok), "If-Modified-Since \(since)")
        if notModified {
          #expect(response.headers[.lastModified] == full.headers[.lastModified])
          #expect(response.body.readableBytes == 0)
        }
      }
      #expect(try await client.cacheHits("m") == CacheHits(key: "m", hits: 5, notModified: 2, unsafe: 0, version: 1))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func ifModifiedSinceAcceptsObsoleteDateForms() async throws {
    try await TestSupport.withRouter { client throws in
      let uri = "/cache/resource/o?lm=1"
      for since in ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
        #expect(try await client.send(uri, headers: [.ifModifiedSince: since]).status == .ok)
      }
      for since in ["Friday, 31-Dec-49 23:59:59 GMT", "Fri Dec 31 23:59:59 9999"] {
        #expect(try await client.send(uri, headers: [.ifModifiedSince: since]).status == .notModified)
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func ifModifiedSinceIsIgnoredWhenItCannotApply() async throws {
    try await TestSupport.withRouter { client throws in
      let future = HTTPDate.format(Date().addingTimeInterval(86_400))
      // No Last-Modified (no lm=1): never 304.
      #expect(try await client.send("/cache/resource/i", headers: [.ifModifiedSince: future]).status == .ok)
      // Not an HTTP-date, or sent twice: ignored.
      for since in ["tomorrow", "1700000000", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Feb 2099 08:49:37 GMT"] {
        #expect(try await client.send("/cache/resource/i?lm=1", headers: [.ifModifiedSince: since]).status == .ok)
      }
      let twice = HTTPFields(Array(repeating: HTTPField(name: .ifModifiedSince, value: future), count: 2))
      #expect(try await client.send("/cache/resource/i?lm=1", headers: twice).status == .ok)
      #expect(try await client.cacheHits("i").notModified == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func ifNoneMatchTakesPrecedenceOverIfModifiedSince() async throws {
    try await TestSupport.withRouter { client in
      let uri = "/cache/resource/p?etag=1&lm=1"
      let future = HTTPDate.format(Date().addingTimeInterval(86_400))
      let past = HTTPDate.format(Date(timeIntervalSince1970: 0))
      let mismatch = try await client.send(uri, headers: [.ifNoneMatch: #""p-v9""#, .ifModifiedSince: future])
      #expect(mismatch.status == .ok)
      let match = try await client.send(uri, headers: [.ifNoneMatch: #""p-v1""#, .ifModifiedSince: past])
      #expect(match.status == .notModified)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func headRevalidatesToo() async throws {
    try await TestSupport.withRouter { client in
      let uri = "/cache/resource/hd?etag=1"
      let head = try await client.send(uri, method: .head, headers: [.ifNoneMatch: #""hd-v1""#])
      #expect(head.status == .notModified)
      #expect(head.headers[.eTag] == #""hd-v1""#)
      #expect(try await client.cacheHits("hd").notModified == 1)
    }
  }
}
