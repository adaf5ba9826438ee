import CoreMetrics
import Courier
import Foundation
import HTTPTypes
import OTelSemanticConventions

/// Reports every call to swift-metrics under the names and attributes of OpenTelemetry's semantic conventions for
/// HTTP clients, so that dashboards and alerts built for them work unchanged.
///
/// | Metric | swift-metrics type | Unit |
/// |---|---|---|
/// | `http.client.request.duration` | `Timer` (displayed in seconds) | s |
/// | `http.client.active_requests` | `Meter` | `{request}` |
/// | `http.client.request.body.size` | `Recorder` (a histogram) | By |
/// | `http.client.response.body.size` | `Recorder` (a histogram) | By |
/// | `courier.cache.lookups` | `Counter` | `{lookup}` |
///
/// Every metric carries `http.request.method` (`_OTHER` for a method the conventions do not list),
/// `server.address`, `server.port` and `url.scheme`; the duration and the body sizes add
/// `http.response.status_code` when an answer came, and `error.type` when the call failed: the status code for a
/// 4xx or 5xx answer, else the `CourierError` kind (`timeout`, `noConnection`, …). `courier.cache.lookups`
/// counts what the cache did (`courier.cache.result`: `hit`, `stale`, `revalidated`, `miss`, from the
/// `Cache-Status` the cache interceptor writes); it is Courier's own, so it has Courier's name.
///
/// ```swift
/// let client = APIClient(baseURL: api) { $0.interceptors = [MetricsInterceptor()] + $0.interceptors }
/// ```
///
/// Put it first, so that it times the whole call (retries, redirects and authentication included) and sees cache
/// hits. Without it nothing is measured and nothing is spent.
public struct MetricsInterceptor: Interceptor {
  private let prefix: String?
  private let factory: any MetricsFactory

  /// An interceptor reporting to `factory` (the bootstrapped `MetricsSystem.factory` by default).
  ///
  /// - Parameters:
  ///   - prefix: Put before every metric's name with a dot (`"myapp"` makes
  ///     `myapp.http.client.request.duration`); `nil`, the default, keeps OpenTelemetry's names.
  ///   - factory: Where the metrics go.
  public init(prefix: String? = nil, factory: any MetricsFactory = MetricsSystem.factory) {
    self.prefix = prefix
    self.factory = factory
  }

  /// Measures the call.
  public func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    let attributes = HTTPClientAttributes(request)
    let dimensions = attributes.metricDimensions
    let active = Meter(label: name("http.client.active_requests"), dimensions: dimensions, factory: factory)
    active.increment()
    let start = ContinuousClock.now
    let sent = body?.length
    func record(status: HTTPResponse.Status?, error: (any Error)?, received: Int64?) {
      active.decrement()
      var outcome = dimensions
      if let status { outcome.append((OTelAttribute.http.response.statusCode, String(status.code))) }
      if let type = HTTPClientAttributes.errorType(status: status, error: error) {
        outcome.append((OTelAttribute.error.type, type))
      }
      let elapsed = start.duration(to: .now).components
      Timer(
        label: name("http.client.request.duration"), dimensions: outcome, preferredDisplayUnit: .seconds,
        factory: factory
      ).recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
      if let sent {
        Recorder(label: name("http.client.request.body.size"), dimensions: outcome, aggregate: true, factory: factory)
          .record(sent)
      }
      if let received {
        Recorder(label: name("http.client.response.body.size"), dimensions: outcome, aggregate: true, factory: factory)
          .record(received)
      }
    }
    do {
      let (response, responseBody) = try await next(request, body, context)
      let hasBody = request.method != .head && response.status != .noContent && response.status != .notModified
      let received = hasBody ? response.headerFields[.contentLength].flatMap(Int64.init) : nil
      record(status: response.status, error: nil, received: received)
      if let cache = CacheStatus(response) {
        let result = [("courier.cache.result", cache.rawValue)]
        Counter(label: name("courier.cache.lookups"), dimensions: result, factory: factory).increment()
      }
      return (response, responseBody)
    } catch {
      record(status: (error as? CourierError)?.status, error: error, received: nil)
      throw error
    }
  }

  /// `metric` behind the prefix, if any.
  private func name(_ metric: String) -> String {
    prefix.map { "\($0).\(metric)" } ?? metric
  }
}
