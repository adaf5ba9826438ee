import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

/// `/download/{bytes}`, its `/drop` variant and `/download/sha256/{bytes}`, driven in memory.
@Suite struct DownloadTests {
  static let lastModified = "Mon, 01 Jan 2024 00:00:00 GMT"

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func fullBody() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/download/1000")
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "application/octet-stream")
      #expect(response.headers[.contentLength] == "1000")
      #expect(response.headers[.eTag] == #""dl-1000""#)
      #expect(response.headers[.acceptRanges] == "bytes")
      #expect(response.headers[.lastModified] == Self.lastModified)
      #expect(response.headers[.contentRange] == nil)
      #expect(Array(response.body.readableBytesView) == TransferTestSupport.pattern(1_000))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func emptyAndChunkSpanningBodies() async throws {
    try await TestSupport.withRouter { client in
      let empty = try await client.send("/download/0")
      #expect(empty.status == .ok)
      #expect(empty.headers[.contentLength] == "0")
      #expect(empty.body.readableBytes == 0)
      let large = try await client.send("/download/200000")
      #expect(large.body.readableBytes == 200_000)
      #expect(
        TransferTestSupport.sha256(large.body.readableBytesView)
          == (await DownloadDigests.shared.digest(length: 200_000)))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    ("bytes=0-0", Int64(0), Int64(0)),
    ("bytes=10-19", 10, 19),
    ("bytes=990-", 990, 999),
    ("bytes=-10", 990, 999),
    ("bytes=-5000", 0, 999),
    ("bytes=500-99999", 500, 999),
    ("bytes=0-", 0, 999),
    ("BYTES=1-2", 1, 2),
    (" bytes=3-4 ", 3, 4),
    ("bytes=999-999", 999, 999),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func singleRanges(range: String, first: Int64, last: Int64) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/download/1000", headers: [.range: range])
      #expect(response.status == .partialContent)
      #expect(response.headers[.contentRange] == "bytes \(first)-\(last)/1000")
      #expect(response.headers[.contentLength] == String(last - first + 1))
      #expect(response.headers[.eTag] == #""dl-1000""#)
      #expect(Array(response.body.readableBytesView) == TransferTestSupport.pattern(Int(last - first + 1), from: first))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    ("/download/1000", "bytes=1000-"), ("/download/1000", "bytes=1000-2000"), ("/download/1000", "bytes=-0"),
    ("/download/1000", "bytes=99999999999999999999999-"), ("/download/0", "bytes=0-"), ("/download/0", "bytes=-1"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func unsatisfiableRangesAre416(uri: String, range: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send(uri, headers: [.range: range])
      #expect(response.status == .rangeNotSatisfiable)
      #expect(response.isJSON)
      let length = uri.split(separator: "/").last!
      #expect(response.headers[.contentRange] == "bytes */\(length)")
      #expect(try response.errorBody().code == "range_not_satisfiable")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: ["bytes=5-2", "bytes=a-b", "items=0-1", "bytes=0-1,5-6", "bytes=", "bytes=-", "bytes=1", "0-1"])
  func unusableRangesAreIgnored(range: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/download/100", headers: [.range: range])
      #expect(response.status == .ok)
      #expect(response.body.readableBytes == 100)
      #expect(response.headers[.contentRange] == nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    ("", #""dl-1000""#, true),
    ("", #""dl-999""#, false),
    ("", #"W/"dl-1000""#, false),
    ("", "Mon, 01 Jan 2024 00:00:00 GMT", true),
    ("", "Tue, 02 Jan 2024 00:00:00 GMT", false),
    ("", "not a validator", false),
    ("?etag=v2", #""v2""#, true),
    ("?etag=v2", #""dl-1000""#, false),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func ifRange(query: String, ifRange: String, honoured: Bool) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send(
        "/download/1000\(query)", headers: [.range: "bytes=100-199", .ifRange: ifRange])
      #expect(response.status == (honoured ? .partialContent : .ok))
      #expect(response.body.readableBytes == (honoured ? 100 : 1_000))
      // A stale If-Range also overrides an unsatisfiable Range: the client gets the whole new body.
      let beyond = try await client.send("/download/1000\(query)", headers: [.range: "bytes=5000-", .ifRange: ifRange])
      #expect(beyond.status == (honoured ? .rangeNotSatisfiable : .ok))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func ifRangeWithoutRangeIsIgnored() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/download/10", headers: [.ifRange: #""other""#])
      #expect(response.status == .ok)
      #expect(response.body.readableBytes == 10)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func etagParameter() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/download/10?etag=release-2")
      #expect(response.headers[.eTag] == #""release-2""#)
      for bad in ["", "a%22b", "a%20b", String(repeating: "e", count: 201)] {
        let rejected = try await client.send("/download/10?etag=\(bad)")
        #expect(rejected.status == .badRequest)
        #expect(try rejected.errorBody().parameter == "etag")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func headHasTheHeadersButNoBody() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/download/8589934592", method: .head)
      #expect(response.status == .ok)
      #expect(response.headers[.contentLength] == "8589934592")
      #expect(response.headers[.eTag] == #""dl-8589934592""#)
      #expect(response.headers[.acceptRanges] == "bytes")
      #expect(response.body.readableBytes == 0)
      // Range applies to GET only (RFC 9110 §14.2).
      let ranged = try await client.send("/download/1000", method: .head, headers: [.range: "bytes=0-9"])
      #expect(ranged.status == .ok)
      #expect(ranged.headers[.contentLength] == "1000")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: ["-1", "8589934593", "abc", "1.5", "99999999999999999999"])
  func badSizesAre400(bytes: String) async throws {
    try await TestSupport.withRouter { client in
      for uri in ["/download/\(bytes)", "/download/\(bytes)/drop?key=k&after=0", "/download/sha256/\(bytes)"] {
        let response = try await client.send(uri)
        #expect(response.status == .badRequest)
        #expect(try response.errorBody().parameter == "bytes")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: ["0", "-5", "fast", "1099511627777"])
  func badRatesAre400(rate: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/download/10?rate=\(rate)")
      #expect(response.status == .badRequest)
      #expect(try response.errorBody().parameter == "rate")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func rateThrottles() async throws {
    try await TestSupport.withRouter { client in
      let clock = ContinuousClock()
      let start = clock.now
      // 1 000-byte writes every 100 ms: the fourth starts 300 ms in.
      let response = try await client.send("/download/4000?rate=10000")
      #expect(clock.now - start >= .milliseconds(280))
      #expect(Array(response.body.readableBytesView) == TransferTestSupport.pattern(4_000))
      let ranged = try await client.send("/download/4000?rate=10000", headers: [.range: "bytes=3000-"])
      #expect(Array(ranged.body.readableBytesView) == TransferTestSupport.pattern(1_000, from: 3_000))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    (Int64(0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    (1_000, "5097e7d587352f5097062ae679f37bda5802d9f875aba14c8cb4d1a188ada179"),
    (1_000_000, "668f6709eed11666baa9f0fcd94cbae12c6ad4236918792be36e62d03257fc44"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func sha256Endpoint(bytes: Int64, digest: String) async throws {
    try await TestSupport.withRouter { client in
      for _ in 0..<2 {
        let response = try await client.send("/download/sha256/\(bytes)")
        #expect(try response.decode(DownloadDigest.self) == DownloadDigest(bytes: bytes, sha256: digest))
      }
      if bytes <= 1_000_000 {
        let body = try await client.send("/download/\(bytes)").body
        #expect(TransferTestSupport.sha256(body.readableBytesView) == digest)
      }
    }
  }

  // MARK: Drop

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func dropsOncePerKeyThenServesRanges() async throws {
    try await TestSupport.withRouter { client in
      // HEAD does not use up the key.
      let head = try await client.send("/download/1000/drop?key=k&after=100", method: .head)
      #expect(head.status == .ok)
      #expect(head.headers[.contentLength] == "1000")
      await #expect(throws: ConnectionDrop.Dropped.self) {
        _ = try await client.send("/download/1000/drop?key=k&after=100")
      }
      let resumed = try await client.send(
        "/download/1000/drop?key=k&after=100",
        headers: [.range: "bytes=100-", .ifRange: #""dl-1000""#]
      )
      #expect(resumed.status == .partialContent)
      #expect(resumed.headers[.contentRange] == "bytes 100-999/1000")
      #expect(Array(resumed.body.readableBytesView) == TransferTestSupport.pattern(900, from: 100))
      let whole = try await client.send("/download/1000/drop?key=k&after=100")
      #expect(whole.body.readableBytes == 1_000)
      // Another key drops again, also a ranged first request.
      await #expect(throws: ConnectionDrop.Dropped.self) {
        _ = try await client.send("/download/1000/drop?key=other&after=0", headers: [.range: "bytes=500-"])
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func dropParametersAreValidatedWithoutUsingTheKey() async throws {
    try await TestSupport.withRouter { client in
      for (query, parameter) in [
        ("after=1", "key"), ("key=&after=1", "key"), ("key=k", "after"), ("key=k&after=-1", "after"),
        ("key=k&after=x", "after"), ("key=k&after=1000", "after"),
      ] {
        let response = try await client.send("/download/1000/drop?\(query)")
        #expect(response.status == .badRequest)
        #expect(try response.errorBody().parameter == parameter, "\(query)")
      }
      // Only the bytes this response sends count: 100 is too many for a 50-byte range.
      let ranged = try await client.send("/download/1000/drop?key=k&after=100", headers: [.range: "bytes=-50"])
      #expect(try ranged.errorBody().parameter == "after")
      let unsatisfiable = try await client.send("/download/1000/drop?key=k&after=1", headers: [.range: "bytes=2000-"])
      #expect(unsatisfiable.status == .rangeNotSatisfiable)
      // None of these used up key k.
      await #expect(throws: ConnectionDrop.Dropped.self) {
        _ = try await client.send("/download/1000/drop?key=k&after=999")
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func adminResetForgetsDroppedKeys() async throws {
    try await TestSupport.withRouter { client in
      await #expect(throws: ConnectionDrop.Dropped.self) {
        _ = try await client.send("/download/10/drop?key=r&after=5")
      }
      #expect(try await client.send("/download/10/drop?key=r&after=5").status == .ok)
      _ = try await client.send("/admin/reset", method: .post)
      await #expect(throws: ConnectionDrop.Dropped.self) {
        _ = try await client.send("/download/10/drop?key=r&after=5")
      }
    }
  }
}
