import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

/// Unsafe methods on `/cache/resource/{key}`, the `/cache/hits/{key}` counters and `/admin/reset`.
@Suite struct CacheUpdateTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [HTTPRequest.Method.post, .put, .patch, .delete])
  func unsafeMethodsMakeANewVersion(method: HTTPRequest.Method) async throws {
    try await TestSupport.withRouter { client in
      let uri = "/cache/resource/u?etag=1&cc=max-age%3D600"
      let before = try await client.send(uri)
      #expect(before.headers[.eTag] == #""u-v1""#)
      let update = try await client.send("/cache/resource/u", method: method, body: #"{"x":1}"#)
      if method == .delete {
        #expect(update.status == .noContent)
        #expect(update.body.readableBytes == 0)
      } else {
        #expect(update.status == .ok)
        #expect(update.isJSON)
        #expect(update.text == #"{"key":"u","version":2}"#)
      }
      let after = try await client.send(uri, headers: [.ifNoneMatch: #""u-v1""#])
      #expect(after.status == .ok)
      #expect(after.headers[.eTag] == #""u-v2""#)
      #expect(try after.decode(CacheResource.self) == CacheResource(key: "u", version: 2, hit: 2, vary: [:]))
      #expect(before.text != after.text)
      #expect(try await client.send(uri, headers: [.ifNoneMatch: #""u-v2""#]).status == .notModified)
      #expect(try await client.cacheHits("u") == CacheHits(key: "u", hits: 3, notModified: 1, unsafe: 1, version: 2))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func lastModifiedMovesForwardWithEachVersion() async throws {
    try await TestSupport.withRouter { client in
      let uri = "/cache/resource/t?lm=1"
      let first = try await client.send(uri)
      let since = try #require(first.headers[.lastModified])
      #expect(try await client.send(uri, headers: [.ifModifiedSince: since]).status == .notModified)
      // Versions made within the same second still get later modification times.
      _ = try await client.send("/cache/resource/t", method: .put)
      _ = try await client.send("/cache/resource/t", method: .put)
      let third = try await client.send(uri, headers: [.ifModifiedSince: since])
      #expect(third.status == .ok)
      #expect(try third.decode(CacheResource.self).version == 3)
      #expect(try third.httpDate(.lastModified).timeIntervalSince(try first.httpDate(.lastModified)) >= 2)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func locationAndContentLocationAreEchoed() async throws {
    try await TestSupport.withRouter { client in
      let query = "location=/cache/resource/other&contentLocation=%2Fcache%2Fresource%2Fe%3Fetag%3D1"
      for method in [HTTPRequest.Method.post, .put, .patch, .delete] {
        for status in ["", "&status=500"] {
          let response = try await client.send("/cache/resource/e?\(query)\(status)", method: method)
          #expect(response.headers[.location] == "/cache/resource/other")
          #expect(response.headers[.contentLocation] == "/cache/resource/e?etag=1")
        }
      }
      let absolute = try await client.send("/cache/resource/e?location=http://elsewhere.example/x", method: .post)
      #expect(absolute.headers[.location] == "http://elsewhere.example/x")
      #expect(absolute.headers[.contentLocation] == nil)
      #expect(try await client.send("/cache/resource/e", method: .post).headers[.location] == nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    // (method, status, new version expected, body expected)
    (HTTPRequest.Method.post, 201, true, #"{"key":"s","version":2}"#),
    (.put, 204, true, ""),
    (.delete, 200, true, #"{"key":"s","version":2}"#),
    (.post, 303, false, #"{"key":"s","version":1}"#),
    (.patch, 304, false, ""),
    (.post, 404, false, #"{"code":"status_404","error":"Status 404 for POST of key 's'"}"#),
    (.delete, 500, false, #"{"code":"status_500","error":"Status 500 for DELETE of key 's'"}"#),
    (.put, 599, false, #"{"code":"status_599","error":"Status 599 for PUT of key 's'"}"#),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func statusIsAnsweredAndOnly2xxMakesANewVersion(
    method: HTTPRequest.Method,
    code: Int,
    bumps: Bool,
    body: String
  ) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/cache/resource/s?status=\(code)", method: method)
      #expect(response.status.code == code)
      #expect(response.text == body)
      let hits = try await client.cacheHits("s")
      #expect(hits == CacheHits(key: "s", hits: 0, notModified: 0, unsafe: 1, version: bumps ? 2 : 1))
      let etag = try await client.send("/cache/resource/s?etag=1").headers[.eTag]
      #expect(etag == (bumps ? #""s-v2""# : #""s-v1""#))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    ("status=199", "status"), ("status=600", "status"), ("status=ok", "status"), ("location=", "location"),
    ("location=/a%20b", "location"), ("contentLocation=/%C3%A9", "contentLocation"),
    ("contentLocation=/a%0Ab", "contentLocation"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func badUpdateParametersAre400AndNotCounted(query: String, parameter: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/cache/resource/b?\(query)", method: .post)
      #expect(response.status == .badRequest)
      #expect(response.isJSON)
      #expect(try response.errorBody().parameter == parameter)
      #expect(try await client.cacheHits("b") == CacheHits(key: "b", hits: 0, notModified: 0, unsafe: 0, version: 1))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func hitsCountOriginRequestsWithoutBeingCounted() async throws {
    try await TestSupport.withRouter { client in
      let empty = try await client.send("/cache/hits/n")
      #expect(empty.status == .ok)
      #expect(empty.headers[.cacheControl] == "no-store")
      #expect(empty.text == #"{"hits":0,"key":"n","notModified":0,"unsafe":0,"version":1}"#)
      _ = try await client.send("/cache/resource/n?etag=1")
      _ = try await client.send("/cache/resource/n?etag=1", headers: [.ifNoneMatch: #""n-v1""#])
      _ = try await client.send("/cache/resource/n?fail=503")
      _ = try await client.send("/cache/resource/n", method: .head)
      _ = try await client.send("/cache/resource/n", method: .post)
      _ = try await client.send("/cache/resource/n?status=500", method: .delete)
      _ = try await client.send("/cache/resource/other")
      let hits = try await client.send("/cache/hits/n")
      #expect(hits.text == #"{"hits":4,"key":"n","notModified":1,"unsafe":2,"version":2}"#)
      #expect(try await client.cacheHits("n").hits == 4)
      #expect(try await client.cacheHits("other").hits == 1)
      let stats = try await client.send("/admin/stats").decode(Stats.self)
      #expect(
        stats.requests == [
          "GET /cache/resource/{key}": 5, "POST /cache/resource/{key}": 1, "DELETE /cache/resource/{key}": 1,
        ]
      )
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func resetForgetsCountersAndVersions() async throws {
    try await TestSupport.withRouter { client in
      _ = try await client.send("/cache/resource/r?etag=1")
      _ = try await client.send("/cache/resource/r", method: .patch)
      _ = try await client.send("/cache/resource/r?etag=1", headers: [.ifNoneMatch: #""r-v2""#])
      #expect(try await client.cacheHits("r") == CacheHits(key: "r", hits: 2, notModified: 1, unsafe: 1, version: 2))
      #expect(try await client.send("/admin/reset", method: .post).status == .ok)
      #expect(try await client.cacheHits("r") == CacheHits(key: "r", hits: 0, notModified: 0, unsafe: 0, version: 1))
      let fresh = try await client.send("/cache/resource/r?etag=1", headers: [.ifNoneMatch: #""r-v2""#])
      #expect(fresh.status == .ok)
      #expect(fresh.headers[.eTag] == #""r-v1""#)
      #expect(try fresh.decode(CacheResource.self) == CacheResource(key: "r", version: 1, hit: 1, vary: [:]))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func otherMethodsAre405() async throws {
    try await TestSupport.withRouter { client in
      let options = try await client.send("/cache/resource/k", method: .options)
      #expect(options.status == .methodNotAllowed)
      #expect(options.headers[.allow] == "GET, HEAD, POST, PUT, PATCH, DELETE")
      let hits = try await client.send("/cache/hits/k", method: .post)
      #expect(hits.status == .methodNotAllowed)
      #expect(hits.headers[.allow] == "GET, HEAD")
      #expect(try await client.cacheHits("k").unsafe == 0)
    }
  }
}
