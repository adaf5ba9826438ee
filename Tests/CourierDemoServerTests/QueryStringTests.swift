import Testing

@testable import CourierDemoServer

@Suite struct QueryStringTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func splitsTargets() {
    #expect(QueryString.split(target: "/echo/a%20b?x=1&y").path == "/echo/a%20b")
    #expect(QueryString.split(target: "/echo/a%20b?x=1&y").query == "x=1&y")
    #expect(QueryString.split(target: "/echo").query == nil)
    #expect(QueryString.split(target: "/echo?").query == "")
    #expect(QueryString.split(target: "/echo?a=?b").query == "a=?b")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func percentDecoding() {
    #expect(PercentDecoding.decode("a+b%20c") == "a+b c")
    #expect(PercentDecoding.decodeForm("a+b%20c") == "a b c")
    #expect(PercentDecoding.decode("%F0%9F%91%8D") == "👍")
    #expect(PercentDecoding.decode("100%") == "100%")
    #expect(PercentDecoding.decode("%4") == "%4")
    #expect(PercentDecoding.decode("%C3%A9%c3%a9") == "éé")
    #expect(PercentDecoding.decode("%FF") == "\u{FFFD}")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func replacingKeepsOtherPartsVerbatim() {
    let query = QueryString(raw: "q=a%20b&page=1&x=%2B&page=7")
    #expect(query.first("page") == "1")
    #expect(query.replacing("page", with: "2") == "q=a%20b&page=2&x=%2B")
    #expect(QueryString(raw: "q=1").replacing("page", with: "2") == "q=1&page=2")
    #expect(QueryString(raw: nil).replacing("page", with: "2") == "page=2")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func tokenSeconds() {
    #expect(TokenStore.seconds(.seconds(3600)) == 3600)
    #expect(TokenStore.seconds(.milliseconds(1500)) == 2)
    #expect(TokenStore.seconds(.zero) == 0)
    #expect(TokenStore.seconds(.seconds(-5)) == 0)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func tokensAreRandomAndURLSafe() {
    let tokens = (0..<50).map { _ in TokenStore.randomToken(prefix: "at_") }
    #expect(Set(tokens).count == 50)
    #expect(tokens.allSatisfy { $0.hasPrefix("at_") && $0.count == 46 })
    #expect(tokens.allSatisfy { !$0.contains("+") && !$0.contains("/") && !$0.contains("=") })
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func urlHosts() {
    #expect(RunningDemoServer.urlHost(for: "127.0.0.1") == "127.0.0.1")
    #expect(RunningDemoServer.urlHost(for: "0.0.0.0") == "127.0.0.1")
    #expect(RunningDemoServer.urlHost(for: "::1") == "[::1]")
    #expect(RunningDemoServer.urlHost(for: "localhost") == "localhost")
  }
}
