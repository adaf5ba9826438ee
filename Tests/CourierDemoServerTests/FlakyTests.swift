import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

@Suite struct FlakyTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func failsTwiceByDefaultThenSucceeds() async throws {
    try await TestSupport.withRouter { client in
      for attempt in 1...2 {
        let failure = try await client.send("/flaky/k")
        #expect(failure.status == .serviceUnavailable)
        #expect(failure.isJSON)
        #expect(failure.headers[.retryAfter] == nil)
        let body = try failure.errorBody()
        #expect(body == ErrorBody(code: "service_unavailable", error: "Planned failure \(attempt) of 2 for key 'k'"))
      }
      let success = try await client.send("/flaky/k")
      #expect(success.status == .ok)
      #expect(try success.decode(FlakyAttempts.self) == FlakyAttempts(key: "k", attempts: 3))
      let again = try await client.send("/flaky/k")
      #expect(try again.decode(FlakyAttempts.self).attempts == 4)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [0, 1, 5, 20])
  func failuresThenSuccessCountsAttempts(failures: Int) async throws {
    try await TestSupport.withRouter { client in
      for _ in 0..<failures {
        #expect(try await client.send("/flaky/n?failures=\(failures)").status == .serviceUnavailable)
      }
      let success = try await client.send("/flaky/n?failures=\(failures)")
      #expect(success.status == .ok)
      #expect(success.text == #"{"attempts":\#(failures + 1),"key":"n"}"#)
      let attempts = try await client.send("/flaky/n/attempts")
      #expect(try attempts.decode(FlakyAttempts.self) == FlakyAttempts(key: "n", attempts: failures + 1))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    (408, "request_timeout"), (429, "too_many_requests"), (500, "internal_error"), (502, "bad_gateway"),
    (503, "service_unavailable"), (504, "gateway_timeout"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func eachStatus(code: Int, errorCode: String) async throws {
    try await TestSupport.withRouter { client in
      let failure = try await client.send("/flaky/s?failures=1&status=\(code)")
      #expect(failure.status.code == code)
      #expect(failure.isJSON)
      #expect(try failure.errorBody().code == errorCode)
      #expect(try await client.send("/flaky/s?failures=1&status=\(code)").status == .ok)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [0, 1, 120, 3600])
  func retryAfterSeconds(seconds: Int) async throws {
    try await TestSupport.withRouter { client in
      let failure = try await client.send("/flaky/r?failures=1&status=429&retryAfter=\(seconds)")
      #expect(failure.status == .tooManyRequests)
      #expect(failure.headers[.retryAfter] == String(seconds))
      // The success carries no Retry-After.
      let success = try await client.send("/flaky/r?failures=1&status=429&retryAfter=\(seconds)")
      #expect(success.status == .ok)
      #expect(success.headers[.retryAfter] == nil)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [0, 5, 90, 3600])
  func retryAfterDate(seconds: Int) async throws {
    try await TestSupport.withRouter { client in
      let before = Date()
      let failure = try await client.send("/flaky/d?retryAfterDate=\(seconds)")
      let after = Date()
      #expect(failure.status == .serviceUnavailable)
      let header = try #require(failure.headers[.retryAfter])
      #expect(header.hasSuffix(" GMT"))
      let date = try #require(Self.parseHTTPDate(header), "not an IMF-fixdate: \(header)")
      // Whole seconds, rounded up: at least `seconds` ahead of the request, at most one second more.
      #expect(date.timeIntervalSince(before) >= Double(seconds) - 1)
      #expect(date.timeIntervalSince(after) <= Double(seconds) + 1)
      #expect(date.timeIntervalSince1970 == date.timeIntervalSince1970.rounded())
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func httpDateFormat() {
    #expect(HTTPDate.format(Date(timeIntervalSince1970: 1_792_567_680)) == "Wed, 21 Oct 2026 07:28:00 GMT")
    #expect(HTTPDate.format(Date(timeIntervalSince1970: 915_246_245.9)) == "Sat, 02 Jan 1999 03:04:05 GMT")
    let now = Date(timeIntervalSince1970: 1_000.25)
    #expect(HTTPDate.secondsAhead(30, from: now) == Date(timeIntervalSince1970: 1_031))
    #expect(HTTPDate.secondsAhead(0, from: Date(timeIntervalSince1970: 7)) == Date(timeIntervalSince1970: 7))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func otherMethodsCountOnTheSameKey() async throws {
    try await TestSupport.withRouter { client in
      let post = try await client.sendJSON("/flaky/m?failures=3", #"{"x":1}"#)
      #expect(post.status == .serviceUnavailable)
      let head = try await client.send("/flaky/m?failures=3", method: .head)
      #expect(head.status == .serviceUnavailable)
      #expect(head.body.readableBytes == 0)
      let put = try await client.send("/flaky/m?failures=3", method: .put)
      #expect(put.status == .serviceUnavailable)
      let patch = try await client.send("/flaky/m?failures=3", method: .patch)
      #expect(try patch.decode(FlakyAttempts.self).attempts == 4)
      let delete = try await client.send("/flaky/m?failures=3", method: .delete)
      #expect(try delete.decode(FlakyAttempts.self).attempts == 5)
      let headSuccess = try await client.send("/flaky/m?failures=3", method: .head)
      #expect(headSuccess.status == .ok)
      #expect(headSuccess.body.readableBytes == 0)
      #expect(try await client.send("/flaky/m/attempts").decode(FlakyAttempts.self).attempts == 6)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func keysAreIndependentAndReadingDoesNotCount() async throws {
    try await TestSupport.withRouter { client in
      #expect(try await client.send("/flaky/a/attempts").text == #"{"attempts":0,"key":"a"}"#)
      _ = try await client.send("/flaky/a")
      _ = try await client.send("/flaky/a/attempts")
      _ = try await client.send("/flaky/a/attempts")
      #expect(try await client.send("/flaky/b?failures=1").status == .serviceUnavailable)
      #expect(try await client.send("/flaky/a/attempts").decode(FlakyAttempts.self).attempts == 1)
      #expect(try await client.send("/flaky/b/attempts").decode(FlakyAttempts.self).attempts == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func resetInMemoryThrowsAndCounts() async throws {
    try await TestSupport.withRouter { client throws in
      for _ in 0..<2 {
        await #expect(throws: ConnectionDrop.Dropped.self) {
          _ = try await client.send("/flaky/x?mode=reset")
        }
      }
      let largeBody = #"{"big":"\#(String(repeating: "x", count: 100_000))"}"#
      await #expect(throws: ConnectionDrop.Dropped.self) {
        _ = try await client.sendJSON("/flaky/y?mode=reset&failures=1", largeBody)
      }
      #expect(try await client.send("/flaky/x?mode=reset").decode(FlakyAttempts.self).attempts == 3)
      #expect(try await client.send("/flaky/y/attempts").decode(FlakyAttempts.self).attempts == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    ("failures=-1", "failures"), ("failures=21", "failures"), ("failures=two", "failures"), ("failures=", "failures"),
    ("failures=99999999999999999999", "failures"), ("mode=close", "mode"), ("mode=", "mode"),
    ("status=404", "status"), ("status=200", "status"), ("status=5O3", "status"), ("retryAfter=-1", "retryAfter"),
    ("retryAfter=3601", "retryAfter"), ("retryAfter=1.5", "retryAfter"), ("retryAfterDate=3601", "retryAfterDate"),
    ("retryAfterDate=soon", "retryAfterDate"), ("retryAfter=1&retryAfterDate=1", "retryAfterDate"),
    ("mode=reset&status=500", "status"), ("mode=reset&retryAfter=1", "retryAfter"),
    ("mode=reset&retryAfterDate=1", "retryAfterDate"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func badParametersAre400AndNotCounted(query: String, parameter: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/flaky/bad?\(query)")
      #expect(response.status == .badRequest)
      #expect(response.isJSON)
      let body = try response.errorBody()
      #expect(body.code == "invalid_parameter")
      #expect(body.parameter == parameter)
      #expect(try await client.send("/flaky/bad/attempts").decode(FlakyAttempts.self).attempts == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func overlongKeyIs400() async throws {
    try await TestSupport.withRouter { client in
      let key = String(repeating: "k", count: PathParameter.maxKeyLength + 1)
      for uri in ["/flaky/\(key)", "/flaky/\(key)/attempts", "/counted/\(key)", "/counted/\(key)/hits"] {
        let response = try await client.send(uri)
        #expect(response.status == .badRequest)
        #expect(try response.errorBody().parameter == "key")
      }
      let longest = String(repeating: "k", count: PathParameter.maxKeyLength)
      #expect(try await client.send("/flaky/\(longest)?failures=0").status == .ok)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func unknownMethodIs405WithAllow() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/flaky/k", method: .options)
      #expect(response.status == .methodNotAllowed)
      #expect(response.headers[.allow] == "GET, HEAD, POST, PUT, PATCH, DELETE")
      #expect(try await client.send("/flaky/k/attempts", method: .post).status == .methodNotAllowed)
    }
  }

  /// Parses an IMF-fixdate such as `Wed, 21 Oct 2026 07:28:00 GMT`.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func parseHTTPDate(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.date(from: text)
  }
}
