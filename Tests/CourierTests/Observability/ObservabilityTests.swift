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
@Suite(.timeLimit(.minutes(1))) struct ObservabilityTests {
  @Test func aCallIsOneClientSpanWithAChildPerExchange() async throws {
    let tracer = InMemoryTracer()
    let transport = StubTransport(
      .get("/a").reply(.status(.serviceUnavailable), .status(.found, headerFields: [.location: "/b"])),
      .get("/b").reply(.body("done"))
    )
    let client = APIClient.testing(transport: transport) {
      $0.interceptors = [TracingInterceptor(tracer: tracer), RetryInterceptor(clock: TestDelayClock())]
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
    #expect(Set(resends.map { "\($0)" }) == ["int64(0)", "int64(1)", "int64(2)"])
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

  @Test func metricsCountDurationsErrorsBytesAndCacheResults() async throws {
    let metrics = TestMetrics()
    let client = APIClient.testing(stubs: [
      .get("/cached").reply(.body("{}", headerFields: [.cacheControl: "max-age=60", .contentLength: "2"])),
      .get("/missing").reply(.status(.notFound)),
    ]) {
      $0.interceptors = [MetricsInterceptor(factory: metrics), CacheInterceptor(store: InMemoryCacheStore())]
    }
    _ = try await client.send(Endpoint<Data>.get("/cached"))
    _ = try await client.send(Endpoint<Data>.get("/cached"))
    _ = try? await client.send(Endpoint<Data>.get("/missing"))

    let ok = try metrics.expectTimer(
      "courier.request.duration", [("method", "GET"), ("status_class", "2xx"), ("host", "api.example.test")])
    #expect(ok.values.count == 2)
    let failed = try metrics.expectTimer(
      "courier.request.duration", [("method", "GET"), ("status_class", "4xx"), ("host", "api.example.test")])
    #expect(failed.values.count == 1)
    let errors = try metrics.expectCounter(
      "courier.request.errors", [("kind", "unacceptableStatus"), ("host", "api.example.test")])
    #expect(errors.totalValue == 1)
    #expect(try metrics.expectCounter("courier.cache", [("result", "miss")]).totalValue == 2, "/cached once, /missing")
    #expect(try metrics.expectCounter("courier.cache", [("result", "hit")]).totalValue == 1)
    #expect(try metrics.expectCounter("courier.bytes.received", [("host", "api.example.test")]).totalValue == 4)
    let inFlight = try metrics.expectMeter("courier.requests.in_flight", [("host", "api.example.test")])
    #expect(inFlight.lastValue == 0)
  }
}
