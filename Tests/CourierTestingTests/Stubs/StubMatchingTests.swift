import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite struct StubMatchingTests {
  func client(_ transport: StubTransport) -> APIClient {
    .testing(baseURL: exampleBaseURL, transport: transport)
  }

  @Test func methodAndPathPatternsChooseTheStub() async throws {
    let transport = StubTransport(
      .get("/users/:id").reply { request in .body("user \(request.pathParameters["id"] ?? "?")") },
      .get("/files/**").reply(.body("anything under files")),
      .get("/files/*").reply(.body("one file")),
      .delete("/users/:id").reply(.status(.noContent))
    )
    let client = client(transport)
    #expect(try await client.value(Endpoint<String>.get("/users/42")) == "user 42")
    #expect(try await client.value(Endpoint<String>.get("/files/a.png")) == "one file")
    #expect(try await client.value(Endpoint<String>.get("/files/a/b.png")) == "anything under files")
    #expect(try await client.send(Endpoint<EmptyBody>.delete("/users/42")).status == .noContent)
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.post("/users/42"))
    }
    #expect(error?.kind == .transport)
    #expect(transport.requests.map(\.pathParameters) == [["id": "42"], [:], [:], ["id": "42"], [:]])
  }

  @Test func pathsMatchAfterTheBasePathOrWholeAndDecoded() async throws {
    let transport = StubTransport(
      .get("/v1/whole").reply(.body("whole")),
      .get("/users/John Doe").reply(.body("decoded")),
      .get("/trailing").reply(.body("trailing"))
    )
    let client = client(transport)
    #expect(try await client.value(Endpoint<String>.get("/whole")) == "whole")
    #expect(try await client.value(Endpoint<String>.get("/users/John Doe")) == "decoded")
    #expect(try await client.value(Endpoint<String>.get("/trailing/")) == "trailing")
    #expect(transport.requests[1].path == "/v1/users/John%20Doe")
  }

  @Test func absoluteURLPatternsAlsoRequireSchemeAndHost() async throws {
    let transport = StubTransport(.get("https://cdn.example.org/img/*").reply(.data(Data([0x89, 0x50]))))
    let client = client(transport)
    #expect(try await client.value(Endpoint<Data>.get("https://cdn.example.org/img/1.png")) == Data([0x89, 0x50]))
    let otherHost = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<Data>.get("https://images.example.org/img/1.png"))
    }
    #expect(otherHost?.detail.contains("the host is images.example.org, the stub expects cdn.example.org") == true)
    await #expect(throws: CourierError.self) { try await client.send(Endpoint<Data>.get("/img/1.png")) }
  }

  @Test func queryRequirementsAreItemsNotStrings() async throws {
    let transport = StubTransport(
      .get("/products").reply(.body("any page")),
      .get("/products").query("page", "2").reply(.body("page 2")),
      .get("/search?q=red shoes&debug").reply(.body("search")),
      .get("/filter").query(["a": "1", "b": "2"]).reply(.body("filtered"))
    )
    let client = client(transport)
    #expect(try await client.value(Endpoint<String>.get("/products", query: ["sort": "price", "page": 2])) == "page 2")
    #expect(try await client.value(Endpoint<String>.get("/products", query: ["page": 3])) == "any page")
    #expect(
      try await client.value(Endpoint<String>.get("/search", query: ["debug": "", "q": "red shoes"])) == "search")
    #expect(
      try await client.value(Endpoint<String>.get("/filter", query: ["b": "2", "a": "1", "c": "3"])) == "filtered")
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<String>.get("/filter", query: ["a": "1"]))
    }
    #expect(error?.detail.contains("the query has no b") == true)
  }

  @Test func headerRequirementsIgnoreTheCaseOfNames() async throws {
    let transport = StubTransport(
      .get("/me").header("x-api-key", "k").reply(.body("keyed")),
      .get("/me").header(.authorization).reply(.body("authorized"))
    )
    let client = client(transport)
    #expect(try await client.value(Endpoint<String>.get("/me").header("X-API-Key", "k")) == "keyed")
    #expect(try await client.value(Endpoint<String>.get("/me").header(.authorization(bearer: "t"))) == "authorized")
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<String>.get("/me").header("X-API-Key", "j"))
    }
    #expect(error?.detail.contains(#"the header x-api-key is "j", the stub expects "k""#) == true)
    #expect(error?.detail.contains("the header Authorization is missing") == true)
  }

  @Test func bodyRequirementsCompareJSONByMeaningTextAndPredicates() async throws {
    let transport = StubTransport(
      .post("/posts").body(json: NewPost(title: "Hi", body: "there")).reply(
        .json(Post(id: 1, title: "Hi", body: "there"))),
      .post("/notes").body(containing: "urgent").reply(.body("urgent note")),
      .post("/upload").body("more than 3 bytes") { $0.count > 3 }.reply(.status(.created))
    )
    let client = client(transport)
    let reordered = Endpoint<Post>.post("/posts").body(Data(#"{ "body": "there", "title": "Hi" }"#.utf8))
    #expect(try await client.value(reordered).id == 1)
    #expect(try await client.value(Endpoint<Post>.post("/posts", body: NewPost(title: "Hi", body: "there"))).id == 1)
    #expect(try await client.value(Endpoint<String>.post("/notes").body(.text("an urgent one"))) == "urgent note")
    #expect(try await client.send(Endpoint<EmptyBody>.post("/upload").body(Data("abcd".utf8))).status == .created)
    let small = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.post("/upload").body(Data("ab".utf8)))
    }
    #expect(small?.detail.contains("the body does not match more than 3 bytes") == true)
    await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<Post>.post("/posts", body: NewPost(title: "Hi", body: "else")))
    }
  }

  @Test func laterStubsWinSoATestCanOverrideAFixture() async throws {
    let transport = StubTransport(.get("/feature-flags").reply(.json(["beta": false])))
    let client = client(transport)
    #expect(try await client.value(Endpoint<[String: Bool]>.get("/feature-flags")) == ["beta": false])
    transport.add(.get("/feature-flags").named("beta on").reply(.json(["beta": true])))
    #expect(try await client.value(Endpoint<[String: Bool]>.get("/feature-flags")) == ["beta": true])
    #expect(transport.requests.map(\.stub) == ["GET /feature-flags", "beta on"])
    transport.removeAllStubs()
    await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/feature-flags")) }
  }

  @Test func requestsCanBeCountedByAnyStubShape() async throws {
    let transport = StubTransport(.any)
    let client = client(transport)
    for id in [1, 2, 1] { try await client.send(Endpoint<EmptyBody>.get("/users/\(id)")) }
    try await client.send(Endpoint<EmptyBody>.post("/users", body: ["name": "Ada"]))
    #expect(transport.requests(matching: .get("/users/:id")).count == 3)
    #expect(transport.requests(matching: .get("/users/1")).count == 2)
    #expect(transport.requests(matching: .post("/users").body(containing: "Ada")).count == 1)
    #expect(transport.requests(matching: .any).count == 4)
  }
}
