import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import CourierOutbox

/// Values bound from an earlier item's answer into a later item, and results handed to handlers per kind.
@Suite(.hangGuard) struct OutboxBindingTests {
  let base = URL(string: "https://api.example.test/v1")!

  struct Created: Codable, Equatable, Sendable {
    var id: Int
    var slug: String
  }

  struct Picture: Codable, Equatable, Sendable {
    var post: Int
    var caption: String
  }

  func outbox(_ transport: StubTransport, network: SwitchedNetwork, path: String) throws -> Outbox {
    try testOutbox(APIClient.testing(baseURL: base, transport: transport), network: network, path: path)
  }

  func answer(_ body: String, headers: HTTPFields = [:]) -> RecordedResponse {
    RecordedResponse(status: .created, headerFields: headers, body: Data(body.utf8))
  }

  func request(_ target: String, body: String? = nil, headers: HTTPFields = [:]) -> StoredRequest {
    StoredRequest(
      method: .put, target: target, headerFields: headers, body: body.map { Data($0.utf8) },
      bodyDigest: StoredRequest.digest(of: body.map { Data($0.utf8) }), idempotencyKey: "k")
  }

  // MARK: The substitution itself

  @Test func valuesGoIntoThePathQueryHeadersAndJSONBodyWithTheirTypes() throws {
    let response = answer(
      #"{"id": 42, "slug": "a b/c", "tags": ["x"], "meta": {"a~b": {"c/d": true}}}"#,
      headers: [.location: "/v1/posts/42"])
    let bindings: [OutboxBinding] = [
      .json("id", at: "/id"), .json("slug", at: "/slug"), .json("tag", at: "/tags/0"),
      .json("flag", at: "/meta/a~0b/c~1d"), .header("where", from: "Location"),
    ]
    let stored = request(
      "/posts/%7Bid%7D/image?slug={slug}&n=1",
      body: #"{"post": "{id}", "caption": "post {id}: {slug}", "flag": "{flag}", "tag": "{tag}"}"#,
      headers: [HTTPField.Name("X-Post")!: "{id}", HTTPField.Name("X-Where")!: "at {where}"])
    let bound = try OutboxBinding.apply(
      bindings, from: response, dependency: OutboxItem.ID(rawValue: 1), to: stored)
    #expect(bound.target == "/posts/42/image?slug=a%20b/c&n=1")
    #expect(bound.headerFields[HTTPField.Name("X-Post")!] == "42")
    #expect(bound.headerFields[HTTPField.Name("X-Where")!] == "at /v1/posts/42")
    let body = try #require(
      try JSONSerialization.jsonObject(with: bound.body ?? Data()) as? [String: Any])
    #expect(body["post"] as? Int == 42, "a whole-string placeholder takes the value's JSON type")
    #expect(body["caption"] as? String == "post 42: a b/c")
    #expect(body["flag"] as? Bool == true)
    #expect(body["tag"] as? String == "x")
    #expect(bound.bodyDigest == StoredRequest.digest(of: bound.body), "the digest is the bound body's")
    #expect(bound.idempotencyKey == "k")
  }

  @Test func aSlashInAValueIsEncodedInThePathSoItStaysOneSegment() throws {
    let bound = try OutboxBinding.apply(
      [.json("slug", at: "/slug")], from: answer(#"{"slug": "a/../b"}"#), dependency: OutboxItem.ID(rawValue: 1),
      to: request("/posts/{slug}"))
    #expect(bound.target == "/posts/a%2F..%2Fb")
  }

  @Test(arguments: [
    (#"{"other": 1}"#, OutboxBinding.json("id", at: "/id"), "nothing at the JSON Pointer /id"),
    (#"{"id": [1]}"#, OutboxBinding.json("id", at: "/id/3"), "nothing at the JSON Pointer /id/3"),
    ("not json", OutboxBinding.json("id", at: "/id"), "is not JSON"),
    ("{}", OutboxBinding.header("id", from: "Location"), "has no Location header"),
  ])
  func aValueTheAnswerDoesNotHoldIsATypedErrorNamingTheBinding(
    body: String, binding: OutboxBinding, message: String
  ) {
    #expect {
      try OutboxBinding.apply(
        [binding], from: answer(body), dependency: OutboxItem.ID(rawValue: 7), to: request("/posts/{id}"))
    } throws: { error in
      let error = error as? OutboxError
      return error?.kind == .bindingFailed && error?.message.contains("{id}") == true
        && error?.message.contains("item 7") == true && error?.message.contains(message) == true
    }
  }

  @Test func bindingsThatCannotWorkAreRefusedAtEnqueue() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let outbox = try outbox(StubTransport(), network: SwitchedNetwork(online: false), path: path)
    let first = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")))
    let endpoint = Endpoint<Data>.put("/posts/{id}").body(Data([1]))
    let refusals: [(OutboxItem.ID?, [OutboxBinding], OutboxConstraints, String)] = [
      (nil, [.json("id", at: "/id")], .none, "give `after:`"),
      (first, [.json("id", at: "/id")], OutboxConstraints(ifDependencyFails: .proceed), "must be .cancel"),
      (first, [.json("i d", at: "/id")], .none, "must be letters"),
      (first, [.json("id", at: "id")], .none, "start with \"/\""),
      (first, [.json("id", at: "/id"), .header("id", from: "Location")], .none, "given twice"),
      (first, [.header("id", from: "Bad Header")], .none, "not a header name"),
    ]
    for (after, bindings, constraints, message) in refusals {
      await #expect {
        try await outbox.enqueue(endpoint, after: after, bindings: bindings, constraints: constraints)
      } throws: { error in
        (error as? OutboxError)?.kind == .invalidRequest && "\(error)".contains(message)
      }
    }
    #expect(try await outbox.items().count == 1, "nothing refused was stored")
  }

  // MARK: Through the outbox

  /// Answers `201` to the first `POST /v1/posts` and loses the connection part-way through its body; answers every
  /// later one whole, and `204` to anything else.
  final class BodyLostOnce: HTTPTransport {
    let sent = Locked<[HTTPRequest]>([])

    func send(
      _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
    ) async throws -> (
      HTTPResponse, BodyStream
    ) {
      let posts = sent.withLock { sent in
        sent.append(request)
        return sent.filter { $0.method == .post }.count
      }
      guard request.method == .post else { return (HTTPResponse(status: .noContent), BodyStream()) }
      let answer = Data(#"{"id":42,"slug":"hello"}"#.utf8)
      guard posts == 1 else { return (HTTPResponse(status: .created), BodyStream(answer)) }
      let head = HTTPResponse(status: .created)
      let chunks = AsyncThrowingStream<Data, any Error> { stream in
        stream.yield(answer.prefix(6))
        stream.finish(throwing: CourierError(.connectionLost, "The connection was lost part-way through the body"))
      }
      return (head, BodyStream(chunks, length: Int64(answer.count)))
    }
  }

  @Test func aSuccessWhoseBodyIsLostOnTheWayIsSentAgainWithItsKeyAndBindsItsDependants() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = BodyLostOnce()
    let network = SwitchedNetwork(online: false)
    let client = APIClient(configuration: APIClient.Configuration(baseURL: base, transport: transport))
    let outbox = try testOutbox(client, network: network, path: path)
    let post = try await outbox.enqueue(Endpoint<Created>.post("/posts", body: Post(title: "hello")), lane: "posts")
    let image = try await outbox.enqueue(
      Endpoint<Data>.put("/posts/{id}/image").body(Data([0xFF, 0xD8])), lane: "pictures", after: post,
      bindings: [.json("id", at: "/id")])
    network.set(online: true)
    try await outbox.waitUntilDrained()
    let items = try await outbox.items()
    #expect(items.map(\.state) == [.delivered, .delivered])
    #expect(items.first { $0.id == post }?.attempts == 2)
    #expect(items.first { $0.id == image }?.target == "/posts/42/image")
    let sent = transport.sent.withLock { $0 }
    #expect(sent.compactMap(\.path) == ["/v1/posts", "/v1/posts", "/v1/posts/42/image"])
    let keys = sent.prefix(2).map { $0.headerFields[HTTPField.Name("Idempotency-Key")!] }
    #expect(keys[0] != nil && keys[0] == keys[1], "the item was sent again with another key: \(keys)")
  }

}
