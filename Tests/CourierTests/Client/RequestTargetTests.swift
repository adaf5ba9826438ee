import CourierTestSupport
import Foundation
import Testing

@testable import Courier

/// The byte-level pieces of ``RequestTarget`` that run on every request.
@Suite struct RequestTargetTests {
  let base = try! RequestTarget(url: URL(string: "https://api.example.com/v1?key=k")!)

  @Test func joinsAndKeepsTheBaseQuery() throws {
    let target = try RequestTarget(base: base, path: "/users/me", query: "page=2")
    #expect(target.scheme == "https")
    #expect(target.authority == "api.example.com")
    #expect(target.path == "/v1/users/me")
    #expect(target.pathAndQuery == "/v1/users/me?key=k&page=2")
    let inline = try RequestTarget(base: base, path: "/search?q=a b", query: "")
    #expect(inline.pathAndQuery == "/v1/search?key=k&q=a%20b")
    let wide = try RequestTarget(base: base, path: "/é?q=ü", query: "")
    #expect(wide.pathAndQuery == "/v1/%C3%A9?key=k&q=%C3%BC")
    let trailing = try RequestTarget(base: base, path: "/a?", query: "")
    #expect(trailing.pathAndQuery == "/v1/a?key=k")
  }

  @Test(arguments: [
    ("/plain/path", "/plain/path"), ("", ""), ("/a b", "/a%20b"), ("/%41%7e", "/%41%7e"), ("/%4", "/%254"),
    ("/%zz", "/%25zz"), ("/%", "/%25"), ("/é", "/%C3%A9"), ("/a?b", "/a%3Fb"), ("/\u{0}", "/%00"),
    ("/a%2", "/a%252"), ("/~!$&'()*+,;=:@", "/~!$&'()*+,;=:@"), ("/[x]", "/%5Bx%5D"),
  ])
  func percentEncodesOnlyWhatAPathCannotHold(path: String, expected: String) {
    #expect(PercentEncoding.encode(Substring(path), keeping: PercentEncoding.path, keepingEscapes: true) == expected)
  }

  @Test(arguments: [
    ("/a/./b", "."), ("/files/../../etc/passwd", ".."), ("/a/..", ".."), ("/.", "."), ("./a", "."), ("..", ".."),
    ("/a/b/.", "."),
  ])
  func dotSegmentsAreFound(path: String, segment: String) {
    #expect(RequestTarget.dotSegment(in: path) == segment)
  }

  @Test(arguments: ["/a/.b", "/a/b..", "/a/...", "/.well-known/x", "/a/%2E%2E/b", "", "/", "/a//b", "/v1.2/x"])
  func namesWithDotsAreNotDotSegments(path: String) {
    #expect(RequestTarget.dotSegment(in: path) == nil)
  }

  @Test func aPathWithDotSegmentsIsRefusedOnEveryTransportAlike() throws {
    let error = #expect(throws: CourierError.self) {
      try RequestTarget(base: base, path: "/files/../../etc/passwd", query: "")
    }
    #expect(error?.kind == .invalidURL)
    #expect(error?.detail.contains("\"..\" segment") == true)
    let absolute = #expect(throws: CourierError.self) {
      try RequestTarget(base: nil, path: "https://api.example.com/a/./b", query: "")
    }
    #expect(absolute?.kind == .invalidURL)
    let encoded = try RequestTarget(base: base, path: "/files/%2E%2E/x", query: "")
    #expect(encoded.path == "/v1/files/%2E%2E/x")
  }

  @Test func queriesMayHoldQuestionMarks() {
    #expect(PercentEncoding.encode("a?b=c d", keeping: PercentEncoding.query, keepingEscapes: true) == "a?b=c%20d")
  }

  @Test(arguments: [
    ("", "", "/"), ("/", "", "/"), ("", "/a", "/a"), ("", "a", "/a"), ("/v1", "/a", "/v1/a"), ("/v1/", "a/", "/v1/a/"),
    ("/v1//", "//a", "/v1/a"), ("/v1", "", "/v1"), ("/v1/", "", "/v1"), ("", "/", "/"), ("/v1", "/", "/v1/"),
    ("", "//", "/"),
  ])
  func joinsWithOneSlash(base: String, path: String, expected: String) {
    #expect(RequestTarget.join(base, path) == expected)
  }

  @Test(arguments: [
    ("https://x.test/a", true), ("HTTP://x.test", true), ("a+b-c.d://x", true), ("://x", false), ("/a://b", false),
    ("/path", false), ("mailto:x", false), ("é://x", false), ("", false), (":", false), ("a:/", false),
  ])
  func recognisesAbsoluteURLs(path: String, absolute: Bool) {
    #expect(RequestTarget.isAbsolute(path) == absolute)
  }
}
