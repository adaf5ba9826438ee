import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

extension Endpoint where Value == User {
  static func user(id: Int) -> Endpoint {
    .get("/users/\(id)").sample(.json(User(id: id, name: "Sample \(id)")))
  }
}

enum MovieAPI: EndpointConvertible {
  case popular
  case missing(id: Int)
  case unsampled

  var path: String {
    switch self {
    case .popular: "/movies/popular"
    case .missing(let id): "/movies/\(id)"
    case .unsampled: "/movies/unsampled"
    }
  }

  var sample: SampleResponse? {
    switch self {
    case .popular: .json(["Arrival", "Heat"])
    case .missing: .json(DemoError(code: "not_found", error: "No such movie"), status: .notFound)
    case .unsampled: nil
    }
  }
}

@Suite struct SampleModeTests {
  @Test func endpointsAnswerWithTheirSamplesAtOnce() async throws {
    let client = APIClient.sampling()
    #expect(try await client.value(.user(id: 3)) == User(id: 3, name: "Sample 3"))
    let response = try await client.send(MovieAPI.popular, as: [String].self)
    #expect(response.value == ["Arrival", "Heat"])
    #expect(response.headerFields[.contentType] == "application/json")
    #expect(client.stubTransport?.requests.isEmpty == true, "nothing reaches the transport")
  }

  @Test func delayedSamplesWaitOnTheClock() async throws {
    let clock = TestCallClock()
    let client = APIClient.sampling(timing: .delayed(seconds: 0.8), clock: clock)
    _ = try await client.value(.user(id: 1))
    _ = try await client.value(MovieAPI.popular, as: [String].self)
    #expect(clock.sleeps == [0.8, 0.8])
  }

  @Test func samplesRunThroughTheInterceptorsAndTheStatusRules() async throws {
    let seen = Locked<[String]>([])
    let client = APIClient.sampling { configuration in
      configuration.serverErrorType = DemoError.self
      configuration.interceptors = [
        ClosureInterceptor { request, body, context, next in
          seen.withLock { $0.append("\(request.path ?? "") sample: \(context.sample != nil)") }
          return try await next(request, body, context)
        }
      ]
    }
    let error = await #expect(throws: CourierError.self) {
      try await client.send(MovieAPI.missing(id: 9), as: [String].self)
    }
    #expect(error?.status == .notFound)
    #expect(error?.userMessage == "No such movie")
    #expect(seen.withLock { $0 } == ["/movies/9 sample: true"])
  }

  @Test func callsWithoutASampleFailNamingTheEndpoint() async {
    let client = APIClient.sampling()
    let error = await #expect(throws: CourierError.self) {
      try await client.send(MovieAPI.unsampled, as: EmptyBody.self)
    }
    #expect(error?.kind == .transport)
    #expect(
      error?.detail == "GET /movies/unsampled has no sample response; declare one with .sample(...) on the endpoint")
  }

  @Test func callsWithoutASampleCanFallBackToStubs() async throws {
    let client = APIClient.sampling(stubs: [.get("/movies/unsampled").reply(.json(["from a stub"]))])
    #expect(try await client.value(MovieAPI.unsampled, as: [String].self) == ["from a stub"])
    #expect(try await client.value(MovieAPI.popular, as: [String].self) == ["Arrival", "Heat"])
    #expect(client.stubTransport?.requests.count == 1)
  }

  @Test func aClientNotInSampleModeIgnoresSamples() async throws {
    let client = APIClient.testing(stubs: [.get("/users/:id").reply(.json(User(id: 1, name: "Real")))])
    #expect(try await client.value(.user(id: 1)) == User(id: 1, name: "Real"))
  }

  @Test func samplesComeFromFixtureFilesAndBytes() async throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fixture = folder.appendingPathComponent("users.json")
    try Data(#"[{"id":1,"name":"Ada"},{"id":2,"name":"Grace"}]"#.utf8).write(to: fixture)
    let client = APIClient.sampling()
    let users = try await client.value(Endpoint<[User]>.get("/users").sample(.file(fixture)))
    #expect(users.map(\.name) == ["Ada", "Grace"])
    let created = try await client.send(
      Endpoint<EmptyBody>.post("/users").sample(SampleResponse(status: .created, headerFields: [.location: "/users/3"]))
        .expect(.created))
    #expect(created.headerFields[.location] == "/users/3")
    #expect(try SampleResponse.file(fixture).loadBody().count == 47)
  }

  @Test func aSampleInterceptorCanJoinAnyClient() async throws {
    let client = APIClient(baseURL: exampleBaseURL) { configuration in
      configuration.transport = StubTransport()
      configuration.interceptors = [SampleInterceptor(.immediate, missing: .passThrough)]
    }
    #expect(try await client.value(.user(id: 5)).name == "Sample 5")
    await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/unsampled")) }
  }
}
