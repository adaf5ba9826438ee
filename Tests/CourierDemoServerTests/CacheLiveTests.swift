import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `/cache` over real sockets, where Hummingbird adds its own `Date` header and NIO frames bodiless responses.
@Suite struct CacheLiveTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func dateAndExpiresOverTheWire() async throws {
    let app = TestSupport.server().makeApplication()
    try await app.test(.live) { client in
      let sent = Date()
      let skewed = try await client.send("/cache/resource/live?date=-3600&expires=60")
      let received = Date()
      #expect(skewed.status == .ok)
      // The route's Date replaces Hummingbird's, and the private field carrying it is not sent.
      #expect(skewed.headers[values: .date].count == 1)
      #expect(skewed.headers[DateOverride.fieldName] == nil)
      let date = try skewed.httpDate(.date)
      // Between sending and receiving, an hour back (whole seconds; a starved test process may take a while).
      #expect(date >= sent.addingTimeInterval(-3_601) && date <= received.addingTimeInterval(-3_599))
      #expect(try skewed.httpDate(.expires).timeIntervalSince(date) == 3_660)
      // Without skew, Date and Expires still come from the same second.
      let plain = try await client.send("/cache/resource/live?expires=0")
      #expect(plain.headers[values: .date].count == 1)
      #expect(plain.headers[.expires] == plain.headers[.date])
      // Other routes keep Hummingbird's Date: a text it renews every second on a timer, which a loaded machine can
      // delay by seconds (an hour's skew is still far outside).
      let productSent = Date()
      let product = try await client.send("/products/1")
      let productReceived = Date()
      #expect(
        CacheTestSupport.isBetween(
          try product.httpDate(.date), sent: productSent, received: productReceived, staleness: 60))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func notModifiedOverTheWire() async throws {
    let app = TestSupport.server().makeApplication()
    try await app.test(.live) { client in
      let uri = "/cache/resource/wire?etag=1&cc=max-age%3D60"
      let full = try await client.send(uri)
      #expect(full.headers[.contentLength] == String(full.body.readableBytes))
      for method in [HTTPRequest.Method.get, .head] {
        let response = try await client.send(uri, method: method, headers: [.ifNoneMatch: #""wire-v1""#])
        #expect(response.status == .notModified)
        #expect(response.body.readableBytes == 0)
        #expect(response.headers[.contentLength] == nil)
        #expect(response.headers[.eTag] == #""wire-v1""#)
        #expect(response.headers[.cacheControl] == "max-age=60")
      }
      // The connection is still usable after the bodiless answers.
      #expect(try await client.send(uri).decode(CacheResource.self).hit == 4)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func urlSessionSeesNotModified() async throws {
    try await TestSupport.withLiveServer { server in
      let url = try TestSupport.url("/cache/resource/session?etag=1&lm=1", on: server)
      var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
      request.setValue(#""session-v1""#, forHTTPHeaderField: "If-None-Match")
      let configuration = URLSessionConfiguration.ephemeral
      configuration.urlCache = nil
      let session = URLSession(configuration: configuration)
      defer { session.finishTasksAndInvalidate() }
      let (data, response) = try await session.data(for: request)
      let http = try #require(response as? HTTPURLResponse)
      #expect(http.statusCode == 304)
      #expect(data.isEmpty)
      #expect(http.value(forHTTPHeaderField: "ETag") == #""session-v1""#)
      #expect(http.value(forHTTPHeaderField: "Last-Modified") != nil)
      let (status, body, _) = try await LiveServerTests.fetch(try TestSupport.url("/cache/hits/session", on: server))
      #expect(status == 200)
      let hits = try JSONDecoder().decode(CacheHits.self, from: body)
      #expect(hits == CacheHits(key: "session", hits: 1, notModified: 1, unsafe: 0, version: 1))
    }
  }
}
