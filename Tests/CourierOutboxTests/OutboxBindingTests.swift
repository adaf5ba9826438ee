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

  @Test func aPictureMadeOfflineGoesToThePostsIdOnceThePostIsCreated() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(
      .post("/v1/posts").reply(.json(Created(id: 42, slug: "hello"), status: .created)),
      .put("/v1/posts/42/image").reply(.status(.noContent)),
      .post("/v1/posts/42/pictures").reply(.status(.created)))
    let network = SwitchedNetwork(online: false)
    let outbox = try outbox(transport, network: network, path: path)
    let post = try await outbox.enqueue(Endpoint<Created>.post("/posts", body: Post(title: "hello")), lane: "posts")
    let image = try await outbox.enqueue(
      Endpoint<Data>.put("/posts/{id}/image").body(Data([0xFF, 0xD8])), lane: "pictures", after: post,
      bindings: [.json("id", at: "/id")])
    let caption = try await outbox.enqueue(
      Endpoint<Data>.post("/posts/{id}/pictures", body: Picture(post: 0, caption: "of {slug}")).header(
        "X-Post", "{id}"), lane: "pictures", after: post,
      bindings: [.json("id", at: "/id"), .json("slug", at: "/slug")])
    #expect(
      try await outbox.items(in: [.pending]).map(\.target) == [
        "/posts", "/posts/%7Bid%7D/image", "/posts/%7Bid%7D/pictures",
      ])

    network.set(online: true)
    try await outbox.waitUntilDrained()
    #expect(try await outbox.items().map(\.state) == [.delivered, .delivered, .delivered])
    #expect(
      transport.requests.compactMap(\.request.path) == ["/v1/posts", "/v1/posts/42/image", "/v1/posts/42/pictures"])
    let sent = transport.requests[2]
    #expect(sent.request.headerFields[HTTPField.Name("X-Post")!] == "42")
    #expect(try sent.decodeBody(as: Picture.self) == Picture(post: 0, caption: "of hello"))
    #expect(try await outbox.items().map(\.id) == [post, image, caption])
    // An item enqueued once its dependency was delivered is bound at once from the stored answer.
    let late = try await outbox.enqueue(
      Endpoint<Data>.put("/posts/{id}/image").body(Data([1])), lane: "pictures", after: post,
      bindings: [.json("id", at: "/id")])
    #expect(try await outbox.items().last?.target == "/posts/42/image")
    try await outbox.waitUntilDrained()
    #expect(try await outbox.items().first { $0.id == late }?.state == .delivered)
    await #expect {
      try await outbox.enqueue(
        Endpoint<Data>.put("/posts/{id}").body(Data([1])), after: post, bindings: [.json("id", at: "/missing")])
    } throws: { ($0 as? OutboxError)?.kind == .bindingFailed }
  }

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

  @Test func aValueMissingFromTheAnswerMakesADeadLetterThatSaysSoAndCancelsWhatWaitsForIt() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(
      .post("/v1/posts").reply(.json(["unexpected": true], status: .created)),
      .post("/v1/profile").reply(.status(.ok)))
    let network = SwitchedNetwork(online: false)
    let outbox = try outbox(transport, network: network, path: path)
    let events = await outbox.events()
    let post = try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")), lane: "posts")
    let image = try await outbox.enqueue(
      Endpoint<Data>.put("/posts/{id}/image").body(Data([1])), lane: "pictures", after: post,
      bindings: [.json("id", at: "/id")])
    let comment = try await outbox.enqueue(
      Endpoint<Data>.post("/posts/1/comments").body(Data([2])), lane: "pictures", after: image)
    let profile = try await outbox.enqueue(Endpoint<Data>.post("/profile", body: Post(title: "me")), lane: "profile")
    network.set(online: true)
    try await outbox.waitUntilDrained()
    let items = try await outbox.items()
    #expect(items.map(\.state) == [.delivered, .deadLetter, .cancelled, .delivered])
    #expect(items[1].reason?.contains("nothing at the JSON Pointer /id") == true)
    #expect(items[1].target.contains("%7Bid%7D"), "the failed item is kept as it was enqueued")
    #expect(transport.requests.compactMap(\.request.path).sorted() == ["/v1/posts", "/v1/profile"])
    for await event in events {
      if case .deadLettered(image, let error) = event {
        #expect(error.kind == .bindingFailed)
        break
      }
    }
    _ = (comment, profile)
  }

  @Test func resultsRecordedWithoutAHandlerReachTheHandlerOfTheirKindAfterARelaunchOnce() async throws {
    let (folder, path) = try temporaryDatabase()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport(
      .post("/v1/posts").reply(
        .json(Created(id: 1, slug: "a"), status: .created), .json(Created(id: 2, slug: "b"), status: .created)),
      .post("/v1/reports").reply(.status(.badRequest)),
      .post("/v1/profile").reply(.status(.ok)))
    do {
      let outbox = try outbox(transport, network: SwitchedNetwork(online: true), path: path)
      try await outbox.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "a")), kind: Outbox.Kind("post"))
      try await outbox.enqueue(Endpoint<Data>.post("/reports", body: Post(title: "r")), kind: Outbox.Kind("post"))
      try await outbox.enqueue(Endpoint<Data>.post("/profile", body: Post(title: "p")), kind: Outbox.Kind("profile"))
      try await outbox.waitUntilDrained()
      await outbox.stop()
    }
    // The app starts again and registers its handler: the results of before reach it, in order.
    let relaunched = try outbox(transport, network: SwitchedNetwork(online: true), path: path)
    let seen = Locked<[OutboxResult]>([])
    await relaunched.handleResults(ofKind: "post") { result in seen.withLock { $0.append(result) } }
    let before = seen.withLock { $0 }
    #expect(before.map(\.item.target) == ["/posts", "/reports"])
    #expect(before.map(\.isDelivered) == [true, false])
    #expect(try before[0].decode(Created.self) == Created(id: 1, slug: "a"))
    #expect(before[1].response?.status == .badRequest)
    // A result is given once: registering again finds nothing new, and a new delivery reaches the handler.
    await relaunched.handleResults(ofKind: "post") { result in seen.withLock { $0.append(result) } }
    #expect(seen.withLock { $0.count } == 2)
    try await relaunched.enqueue(Endpoint<Data>.post("/posts", body: Post(title: "b")), kind: Outbox.Kind("post"))
    try await relaunched.waitUntilDrained()
    // The handler runs once the answer was recorded, so the count may reach zero just before it.
    try await waitUntil("the third result reaches the handler") { seen.withLock { $0.count } >= 3 }
    let after = seen.withLock { $0 }
    #expect(after.count == 3)
    #expect(try after.last?.decode(Created.self) == Created(id: 2, slug: "b"))
  }
}
