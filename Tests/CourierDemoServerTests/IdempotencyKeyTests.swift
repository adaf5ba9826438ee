import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

/// `Idempotency-Key` on the demo API's unsafe endpoints, as draft-ietf-httpapi-idempotency-key-header says.
@Suite struct IdempotencyKeyTests {
  static let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "\"5f1c7a1e-8d3b-4d0e-9b58-0c7c2c1f0a11\""]

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aCompletedKeyReplaysItsAnswerWithoutApplyingTheRequestAgain() async throws {
    try await TestSupport.withRouter { client in
      let first = try await client.sendJSON("/posts", headers: Self.key, #"{"title":"Once","body":"b"}"#)
      #expect(first.status == .created)
      #expect(first.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
      let again = try await client.sendJSON("/posts", headers: Self.key, #"{"title":"Once","body":"b"}"#)
      #expect(again.status == .created)
      #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
      #expect(try again.decode(Post.self) == first.decode(Post.self))
      #expect(again.headers[.location] == first.headers[.location])
      let posts = try await client.send("/posts").decode([Post].self)
      #expect(posts.filter { $0.title == "Once" }.count == 1, "applied once")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func theSameKeyWithAnotherPayloadIs422() async throws {
    try await TestSupport.withRouter { client in
      _ = try await client.sendJSON("/posts", headers: Self.key, #"{"title":"One","body":"b"}"#)
      let other = try await client.sendJSON("/posts", headers: Self.key, #"{"title":"Two","body":"b"}"#)
      #expect(other.status == .unprocessableContent)
      #expect(try other.errorBody().code == "idempotency_key_reused")
      let path = try await client.send("/posts/1", method: .delete, headers: Self.key)
      #expect(path.status == .unprocessableContent, "another method and path is another payload too")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aKeyStillInFlightIs409() async {
    let keys = IdempotencyKeys()
    #expect({ if case .apply = $0 { true } else { false } }(await keys.claim("k", fingerprint: "POST /posts x")))
    #expect({ if case .inFlight = $0 { true } else { false } }(await keys.claim("k", fingerprint: "POST /posts x")))
    await keys.release("k")
    #expect({ if case .apply = $0 { true } else { false } }(await keys.claim("k", fingerprint: "POST /posts x")))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func keysAreKeptADay() async {
    let keys = IdempotencyKeys()
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    _ = await keys.claim("k", fingerprint: "f", now: start)
    await keys.complete("k", with: .init(status: .created, headers: [:], body: .init()), now: start)
    #expect(
      { if case .replay = $0 { true } else { false } }(await keys.claim("k", fingerprint: "f", now: start + 86_000)))
    #expect(
      { if case .apply = $0 { true } else { false } }(await keys.claim("k", fingerprint: "f", now: start + 86_401)))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aKeyThatIsNeitherAStructuredFieldStringNorATokenIs400() async throws {
    try await TestSupport.withRouter { client in
      let broken = try await client.sendJSON(
        "/posts", headers: [HTTPField.Name("Idempotency-Key")!: "\"unterminated"], #"{"title":"t","body":"b"}"#)
      #expect(broken.status == .badRequest)
      #expect(IdempotencyKeys.parse("bare-token") == "bare-token", "a bare token, as older clients send")
      #expect(IdempotencyKeys.parse(#""a\"b""#) == #"a"b"#)
      #expect(IdempotencyKeys.parse(#""""#) == nil)
      #expect(IdempotencyKeys.parse(#""é""#) == nil)
    }
  }
}

@Suite struct IdempotencyKeyServerErrorTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aServerErrorFreesTheKeyForARetryThatAppliesTheRequest() async throws {
    try await TestSupport.withRouter { client in
      let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "\"retry-me\""]
      let first = try await client.send("/flaky/k1?failures=1", method: .post, headers: key, body: "x")
      #expect(first.status == .serviceUnavailable)
      let second = try await client.send("/flaky/k1?failures=1", method: .post, headers: key, body: "x")
      #expect(second.status == .ok, "the 503 was not stored: the retry was applied")
      let third = try await client.send("/flaky/k1?failures=1", method: .post, headers: key, body: "x")
      #expect(third.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
      let attempts = try await client.send("/flaky/k1/attempts")
      #expect(String(buffer: attempts.body).contains("2"), "applied twice: once failing, once succeeding")
    }
  }
}
