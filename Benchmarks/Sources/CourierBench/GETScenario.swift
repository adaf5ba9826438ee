import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The four ways a GET scenario fetches `small.json` and decodes it into a ``Catalog``.
///
/// Each raw baseline and its Courier counterpart share one configuration: the same `URLSessionConfiguration`
/// (Courier's default, without `URLCache`), or the same `HTTPClient.Configuration`
/// (`AsyncHTTPClientTransport.Configuration()`). The raw requests carry the header fields Courier's defaults add
/// (`User-Agent`, `Accept-Language`, `Accept-Encoding`), so both sides put the same request on the wire and the
/// ratio measures Courier and nothing else.
enum GETVariant: String, CaseIterable {
  case rawURLSession = "urlsession-raw"
  case courierURLSession = "urlsession-courier"
  case rawAsyncHTTPClient = "ahc-raw"
  case courierAsyncHTTPClient = "ahc-courier"
  /// Courier over AsyncHTTPClient with a typical chain: auth (a stored token), retry, and logging at info level to a
  /// logger whose level is notice, so nothing is written.
  case courierAsyncHTTPClientChain = "ahc-courier-chain"
  /// Courier over URLSession with the interceptors that keep a call in the caller's task: retry, a concurrency limit
  /// of 64, and logging as in `ahc-courier-chain`.
  case courierURLSessionChain = "urlsession-courier-chain"
}

/// Fetches and decodes one document per call.
struct GETRunner: Sendable {
  let fetch: @Sendable () async throws -> Void
  let shutdown: @Sendable () async throws -> Void

  init(_ variant: GETVariant, baseURL: URL) {
    let url = baseURL.appendingPathComponent("small.json")
    switch variant {
    case .rawURLSession:
      let session = URLSession(configuration: URLSessionTransport.defaultConfiguration())
      let decoder = JSONDecoder()
      var request = URLRequest(url: url)
      for (name, value) in Self.courierHeaderFields(URLSessionTransport(), baseURL: baseURL) {
        request.addValue(value, forHTTPHeaderField: name)
      }
      fetch = { [request] in
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw BenchmarkFailure("status") }
        _ = try decoder.decode(Catalog.self, from: data)
      }
      shutdown = { session.finishTasksAndInvalidate() }
    case .courierURLSession:
      let client = APIClient(baseURL: baseURL) { $0.transport = URLSessionTransport() }
      fetch = { _ = try await client.value(Endpoint<Catalog>.get("/small.json")) }
      shutdown = {}
    case .courierURLSessionChain:
      let client = APIClient(baseURL: baseURL) {
        $0.transport = URLSessionTransport()
        $0.interceptors = [
          RetryInterceptor(), ConcurrencyLimitInterceptor(maxConcurrent: 64), LoggingInterceptor(logger: .benchmark),
        ]
      }
      fetch = { _ = try await client.value(Endpoint<Catalog>.get("/small.json")) }
      shutdown = {}
    case .rawAsyncHTTPClient:
      let httpClient = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: AsyncHTTPClientTransport.Configuration().httpClientConfiguration)
      let decoder = JSONDecoder()
      var request = HTTPClientRequest(url: url.absoluteString)
      let transport = AsyncHTTPClientTransport(client: httpClient, configuration: .init())
      for (name, value) in Self.courierHeaderFields(transport, baseURL: baseURL) {
        request.headers.add(name: name, value: value)
      }
      fetch = { [request] in
        let response = try await httpClient.execute(request, timeout: .seconds(60))
        guard response.status == .ok else { throw BenchmarkFailure("status \(response.status)") }
        let body = try await response.body.collect(upTo: 1 << 20)
        _ = try decoder.decode(Catalog.self, from: body)
      }
      shutdown = { try await httpClient.shutdown() }
    case .courierAsyncHTTPClient:
      let configuration = AsyncHTTPClientTransport.Configuration()
      let httpClient = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: configuration.httpClientConfiguration)
      let client = APIClient(baseURL: baseURL) {
        $0.transport = AsyncHTTPClientTransport(client: httpClient, configuration: configuration)
      }
      fetch = { _ = try await client.value(Endpoint<Catalog>.get("/small.json")) }
      shutdown = { try await httpClient.shutdown() }
    case .courierAsyncHTTPClientChain:
      let configuration = AsyncHTTPClientTransport.Configuration()
      let httpClient = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: configuration.httpClientConfiguration)
      let auth = AuthInterceptor(store: .inMemory(AuthToken(accessToken: "bench-token"))) { $0 }
      let client = APIClient(baseURL: baseURL) {
        $0.transport = AsyncHTTPClientTransport(client: httpClient, configuration: configuration)
        $0.interceptors = [
          auth, RetryInterceptor(), LoggingInterceptor(logger: .benchmark),
        ]
      }
      fetch = { _ = try await client.value(Endpoint<Catalog>.get("/small.json")) }
      shutdown = { try await httpClient.shutdown() }
    }
  }
}

extension GETRunner {
  /// The header fields Courier sends with the GET over `transport`, for the raw baseline to send too.
  static func courierHeaderFields(_ transport: any HTTPTransport, baseURL: URL) -> [(String, String)] {
    let client = APIClient(baseURL: baseURL) { $0.transport = transport }
    let request = try? client.httpRequest(for: Endpoint<Catalog>.get("/small.json"))
    return request?.headerFields.map { ($0.name.rawName, $0.value) } ?? []
  }
}

/// Decoded 1 KB GETs: `count` requests, one at a time or from `concurrency` tasks at once.
enum GETScenario {
  static func run(_ variant: GETVariant, baseURL: URL, count: Int, concurrency: Int) async throws -> Measurement {
    let runner = GETRunner(variant, baseURL: baseURL)
    let warmUp = max(200, concurrency * 4)
    try await fetch(runner, count: warmUp, concurrency: concurrency)
    let switchesBefore = ContextSwitches.now()
    let start = ContinuousClock.now
    var latencies: Latencies?
    if concurrency <= 1 {
      var each = Latencies(capacity: count)
      for _ in 0..<count {
        let callStart = ContinuousClock.now
        try await runner.fetch()
        each.record(since: callStart)
      }
      latencies = each
    } else {
      try await fetch(runner, count: count, concurrency: concurrency)
    }
    let seconds = secondsSince(start)
    let switchesAfter = ContextSwitches.now()
    try await runner.shutdown()
    var measurement = Measurement(value: Double(count) / seconds, unit: "req/s", operations: count, seconds: seconds)
    let perCall = { (before: Int, after: Int) in String(format: "%.2f", Double(after - before) / Double(count)) }
    measurement.extra = [
      ("voluntary_switches_per_call", perCall(switchesBefore.voluntary, switchesAfter.voluntary)),
      ("involuntary_switches_per_call", perCall(switchesBefore.involuntary, switchesAfter.involuntary)),
    ]
    if let latencies {
      measurement.extra += [
        ("p50_us", String(format: "%.1f", latencies.quantile(0.5))),
        ("p99_us", String(format: "%.1f", latencies.quantile(0.99))),
      ]
    }
    return measurement
  }

  private static func fetch(_ runner: GETRunner, count: Int, concurrency: Int) async throws {
    if concurrency <= 1 {
      for _ in 0..<count { try await runner.fetch() }
      return
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for worker in 0..<concurrency {
        let share = count / concurrency + (worker < count % concurrency ? 1 : 0)
        group.addTask {
          for _ in 0..<share { try await runner.fetch() }
        }
      }
      try await group.waitForAll()
    }
  }
}

extension Logger {
  /// A logger whose level is notice, so that a logging interceptor at info level writes nothing.
  static var benchmark: Logger {
    var logger = Logger(label: "courier-bench") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .notice
    return logger
  }
}
