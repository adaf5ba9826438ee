import Courier
import CourierObservability
import Foundation
import InMemoryTracing
import MetricsTestKit
import Tracing

/// The tour's observability step: spans and metrics for a call that is redirected, printed from the tracing and
/// metrics libraries' in-memory backends.
@available(macOS 14, iOS 17, tvOS 17, *)
extension TourSteps {
  func runObservabilitySteps() async throws {
    step("Tracing and metrics: one span per call, a child per exchange, and the call's metrics")
    let tracer = InMemoryTracer()
    let metrics = TestMetrics()
    let observed = APIClient(baseURL: baseURL) { configuration in
      configuration.transport = transport
      configuration.interceptors = [TracingInterceptor(tracer: tracer), MetricsInterceptor(factory: metrics)]
    }
    _ = try await observed.send(Endpoint<Data>.get("/redirect/302").query("to", "/products/1"))
    let spans = tracer.finishedSpans
    for span in spans.sorted(by: { ($0.parentSpanID ?? "") < ($1.parentSpanID ?? "") }) {
      let status = Self.text(span.attributes["http.response.status_code"]?.toSpanAttribute())
      let url = Self.text(span.attributes["url.full"]?.toSpanAttribute())
      print("  span \(span.operationName) \(span.parentSpanID == nil ? "call    " : "exchange") \(status) \(url)")
    }
    for timer in metrics.timers {
      let dimensions = timer.dimensions.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
      print("  metric \(timer.label){\(dimensions)}: \(timer.values.count) call(s)")
    }
  }

  /// A span attribute as plain text.
  static func text(_ attribute: SpanAttribute?) -> String {
    switch attribute {
    case .int64(let value)?: "\(value)"
    case .string(let value)?: value
    case let other?: "\(other)"
    case nil: "-"
    }
  }
}
