import CoreMetrics
import Courier
import Foundation
import HTTPTypes

/// Reports every call to swift-metrics: its duration (a timer, by method, status class and host), the calls in flight
/// (a meter), failures by `CourierError.Kind` (a 4xx or 5xx response counts as
/// `unacceptableStatus`), bytes sent and received, and what the cache
/// did (`hit`, `stale`, `revalidated`, `miss`, from the `Cache-Status` the cache interceptor writes).
///
/// ```swift
/// let client = APIClient(baseURL: api) { $0.interceptors = [MetricsInterceptor()] + $0.interceptors }
/// ```
///
/// Put it first, so that it times the whole call and sees cache hits. Without it nothing is measured and nothing is
/// spent. Metric names start with `prefix` (`courier`): `courier.request.duration`, `courier.requests.in_flight`,
/// `courier.request.errors`, `courier.bytes.sent`, `courier.bytes.received`, `courier.cache`.
public struct MetricsInterceptor: Interceptor {
  private let prefix: String
  private let factory: any MetricsFactory

  /// An interceptor reporting to `factory` (the bootstrapped `MetricsSystem.factory` by default).
  public init(prefix: String = "courier", factory: any MetricsFactory = MetricsSystem.factory) {
    self.prefix = prefix
    self.factory = factory
  }

  /// Measures the call.
  public func intercept(
    _ request: HTTPRequest,
    body: HTTPBody?,
    context: RequestContext,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    let host = request.authority.flatMap(CleartextPolicy.host(of:)) ?? ""
    let method = request.method.rawValue
    let inFlight = Meter(label: "\(prefix).requests.in_flight", dimensions: [("host", host)], factory: factory)
    inFlight.increment()
    if let sent = body?.length, sent > 0 {
      Counter(label: "\(prefix).bytes.sent", dimensions: [("host", host)], factory: factory).increment(by: sent)
    }
    let start = ContinuousClock.now
    func record(status: String) {
      inFlight.decrement()
      let elapsed = start.duration(to: .now).components
      let nanoseconds = elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000
      Timer(
        label: "\(prefix).request.duration",
        dimensions: [("method", method), ("status_class", status), ("host", host)], factory: factory
      ).recordNanoseconds(nanoseconds)
    }
    do {
      let (response, responseBody) = try await next(request, body, context)
      record(status: "\(response.status.code / 100)xx")
      if response.status.code >= 400 {
        Counter(
          label: "\(prefix).request.errors", dimensions: [("kind", "unacceptableStatus"), ("host", host)],
          factory: factory
        ).increment()
      }
      if let received = response.headerFields[.contentLength].flatMap(Int64.init), received > 0 {
        Counter(label: "\(prefix).bytes.received", dimensions: [("host", host)], factory: factory)
          .increment(by: received)
      }
      if let cache = CacheStatus(response) {
        Counter(label: "\(prefix).cache", dimensions: [("result", cache.rawValue)], factory: factory).increment()
      }
      return (response, responseBody)
    } catch {
      let kind = (error as? CourierError).map { "\($0.kind)" } ?? "transport"
      record(status: (error as? CourierError)?.status.map { "\($0.code / 100)xx" } ?? "none")
      Counter(label: "\(prefix).request.errors", dimensions: [("kind", kind), ("host", host)], factory: factory)
        .increment()
      throw error
    }
  }
}
