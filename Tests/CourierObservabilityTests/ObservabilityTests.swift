import Courier
import CourierObservability
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

/// Spans and metrics for calls, with the libraries' in-memory tracer and test metrics.
@Suite(.hangGuard) struct ObservabilityTests {
  @Test func aCallIsOneClientSpanWithAChildPerExchange() async throws {
    let tracer = InMemoryTracer()
    let transport = StubTransport(
      .get("/a").reply(.status(.serviceUnavailable), .status(.found, headerFields: [.location: "/b"])),
      .get("/b").reply(.body("done"))
    )
    let client = APIClient.testing(transport: transport) {
      $0.interceptors = [TracingInterceptor(tracer: tracer), RetryInterceptor(clock: TestCallClock())]
    }
    let response = try await client.send(Endpoint<Data>.get("/a").query("token", "secret-value"))
    #expect(response.status == .ok)

    let spans = tracer.finishedSpans
    let call = try #require(spans.first { $0.parentSpanID == nil })
    #expect(call.operationName == "GET")
    #expect(call.kind == .client)
    #expect(call.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
    #expect(call.attributes["http.request.method"]?.toSpanAttribute() == "GET")
    #expect(call.attributes["server.address"]?.toSpanAttribute() == "api.example.test")
    let url = "\(call.attributes["url.full"]?.toSpanAttribute() ?? "")"
    #expect(url.contains("token=<redacted>") && !url.contains("secret-value"), "\(url)")

    let exchanges = spans.filter { $0.parentSpanID == call.spanID }
    #expect(exchanges.count == 3, "a 503, its retry answered with a redirect, and the redirect's target")
    let resends = exchanges.compactMap { $0.attributes["http.request.resend_count"]?.toSpanAttribute() }
    #expect(Set(resends.map { "\($0)" }) == ["int64(1)", "int64(2)"], "set on resends only")
    #expect(call.attributes["server.port"]?.toSpanAttribute() == 443)
    #expect(call.attributes["url.scheme"]?.toSpanAttribute() == "https")
    #expect(exchanges.contains { $0.attributes["error.type"]?.toSpanAttribute() == "503" })
    // Each exchange carried its own span's context to the server.
    let injected = Set(transport.requests.compactMap { $0.headerFields[HTTPField.Name(InMemoryTracer.spanIDKey)!] })
    #expect(injected == Set(exchanges.map(\.spanID)))
  }

  @Test func anErrorStatusAndAFailureAreRecorded() async throws {
    let tracer = InMemoryTracer()
    let client = APIClient.testing(stubs: [.get("/missing").reply(.status(.notFound))]) {
      $0.interceptors = [TracingInterceptor(tracer: tracer)]
    }
    _ = try? await client.send(Endpoint<Data>.get("/missing"))
    let call = try #require(tracer.finishedSpans.first { $0.parentSpanID == nil })
    #expect(call.attributes["error.type"]?.toSpanAttribute() == "404", "OpenTelemetry: the status code")
    #expect(call.attributes["http.response.status_code"]?.toSpanAttribute() == 404)
    #expect(call.status?.code == .error)

    let closed = try ClosedPort()
    var configuration = APIClient.Configuration(baseURL: closed.baseURL, transport: URLSessionTransport())
    configuration.interceptors = [TracingInterceptor(tracer: tracer)]
    let offline = APIClient(configuration: configuration)
    tracer.clearAll()
    _ = try? await offline.send(Endpoint<Data>.get("/"))
    let failed = try #require(tracer.finishedSpans.first { $0.parentSpanID == nil })
    #expect(failed.attributes["error.type"]?.toSpanAttribute() == "noConnection")
    #expect(failed.errors.count == 1)
    withExtendedLifetime(closed) {}
  }

  @Test func metricsFollowOpenTelemetrysHTTPClientConventions() async throws {
    let metrics = TestMetrics()
    let client = APIClient.testing(stubs: [
      .get("/cached").reply(.body("{}", headerFields: [.cacheControl: "max-age=60", .contentLength: "2"])),
      .get("/missing").reply(.status(.notFound)),
      .post("/echo").reply(.body("stored", headerFields: [.contentLength: "6"])),
    ]) {
      $0.interceptors = [MetricsInterceptor(factory: metrics), CacheInterceptor(store: InMemoryCacheStore())]
    }
    _ = try await client.send(Endpoint<Data>.get("/cached"))
    _ = try await client.send(Endpoint<Data>.get("/cached"))
    _ = try? await client.send(Endpoint<Data>.get("/missing"))
    _ = try await client.send(Endpoint<Data>.post("/echo").body(Data("hello".utf8)))

    let server = [("server.address", "api.example.test"), ("server.port", "443"), ("url.scheme", "https")]
    let get = [("http.request.method", "GET")] + server
    let ok = try metrics.expectTimer("http.client.request.duration", get + [("http.response.status_code", "200")])
    #expect(ok.values.count == 2)
    #expect(ok.displayUnit == .seconds)
    let failed = try metrics.expectTimer(
      "http.client.request.duration", get + [("http.response.status_code", "404"), ("error.type", "404")])
    #expect(failed.values.count == 1)
    #expect(failed.values.allSatisfy { $0 >= 0 })
    let post = [("http.request.method", "POST")] + server + [("http.response.status_code", "200")]
    #expect(try metrics.expectRecorder("http.client.request.body.size", post).values == [5])
    #expect(try metrics.expectRecorder("http.client.response.body.size", post).values == [6])
    let received = try metrics.expectRecorder(
      "http.client.response.body.size", get + [("http.response.status_code", "200")])
    #expect(received.values == [2, 2])
    #expect(try metrics.expectMeter("http.client.active_requests", get).lastValue == 0)
    #expect(metrics.meters(label: "http.client.active_requests").count == 2, "by method and server, not by status")
    #expect(
      try metrics.expectMeter("http.client.active_requests", [("http.request.method", "POST")] + server).lastValue == 0)
    let lookups = "courier.cache.lookups"
    #expect(
      try metrics.expectCounter(lookups, [("courier.cache.result", "miss")]).totalValue == 2,
      "/cached and /missing; a POST is no lookup")
    #expect(try metrics.expectCounter(lookups, [("courier.cache.result", "hit")]).totalValue == 1)
    #expect(metrics.timers.allSatisfy { !$0.label.hasPrefix("courier.") }, "OpenTelemetry's names by default")
  }

  @Test func aFailureIsNamedByItsKindAndAPrefixGoesBeforeEveryName() async throws {
    let metrics = TestMetrics()
    let closed = try ClosedPort()
    var configuration = APIClient.Configuration(baseURL: closed.baseURL, transport: URLSessionTransport())
    configuration.interceptors = [MetricsInterceptor(prefix: "shop", factory: metrics)]
    _ = try? await APIClient(configuration: configuration).send(
      Endpoint<Data>("/", method: HTTPRequest.Method("PURGE")!))
    let timer = try #require(metrics.timers.first)
    #expect(timer.label == "shop.http.client.request.duration")
    let dimensions = Dictionary(uniqueKeysWithValues: timer.dimensions)
    #expect(dimensions["error.type"] == "noConnection")
    #expect(dimensions["http.request.method"] == "_OTHER", "a method the conventions do not list")
    #expect(dimensions["server.address"] == "127.0.0.1")
    #expect(dimensions["server.port"] == String(closed.baseURL.port ?? 0))
    #expect(dimensions["url.scheme"] == "http")
    #expect(dimensions["http.response.status_code"] == nil)
    withExtendedLifetime(closed) {}
  }
}
