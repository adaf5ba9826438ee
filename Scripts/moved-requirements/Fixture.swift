// Typechecked by Scripts/check-moved-requirements.sh against the debug build's modules. Each type is marked with
// the diagnostic it must draw: WARN (a deprecation warning on its line) or OK (none).
import Courier
import CourierStyles

// WARN: a task written for TargetType on a plain EndpointConvertible would otherwise be ignored.
enum MovedTaskAPI: EndpointConvertible {
  case search(String)
  var path: String { "/search" }
  var task: EndpointTask {
    if case .search(let text) = self { .requestParameters(url: ["q": .string(text)]) } else { .request }
  }
}

// OK: the task's home.
enum TargetAPI: TargetType {
  case search(String)
  var path: String { "/search" }
  var task: EndpointTask {
    if case .search(let text) = self { .requestParameters(url: ["q": .string(text)]) } else { .request }
  }
}

// OK: TargetType's default task.
enum PlainTargetAPI: TargetType {
  case ping
  var path: String { "/ping" }
}

// OK: a plain EndpointConvertible without a task.
enum PlainAPI: EndpointConvertible {
  case ping
  var path: String { "/ping" }
}

// OK: a property that happens to be called task, of a type of its own.
struct JobAPI: EndpointConvertible {
  var task: String
  var path: String { "/jobs/\(task)" }
}

// OK: a type that builds its endpoint itself.
enum CustomAPI: EndpointConvertible {
  case search(String)
  var path: String { "/search" }
  var task: EndpointTask { .request }
  func endpoint<Value: Decodable & Sendable>(as type: Value.Type) -> Endpoint<Value> { defaultEndpoint(as: type) }
}

func uses(_ client: APIClient) async throws {
  _ = try await client.value(MovedTaskAPI.search("a"), as: [String].self)
  _ = try await client.value(TargetAPI.search("a"), as: [String].self)
  _ = try await client.value(PlainTargetAPI.ping, as: [String].self)
  _ = try await client.value(PlainAPI.ping, as: [String].self)
  _ = try await client.value(JobAPI(task: "a"), as: [String].self)
  _ = try await client.value(CustomAPI.search("a"), as: [String].self)
  let target: EndpointTask = TargetAPI.search("a").task
  _ = target
}
