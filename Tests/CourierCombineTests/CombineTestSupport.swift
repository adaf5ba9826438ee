import Courier
import CourierDemoServer
import Foundation

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// Starts the demo API on 127.0.0.1 with a free port, hands `body` a client for it, and stops the server afterwards,
/// also when `body` throws.
func withDemoServer(
  _ configure: (inout APIClient.Configuration) -> Void = { _ in },
  _ body: (APIClient) async throws -> Void
) async throws {
  let server = try await DemoServer().start(host: "127.0.0.1", port: 0)
  var configuration = APIClient.Configuration(baseURL: server.baseURL)
  configuration.serverErrorType = DemoErrorBody.self
  configure(&configuration)
  do {
    try await body(APIClient(configuration: configuration))
  } catch {
    await server.stop()
    throw error
  }
  await server.stop()
}

/// The demo API's error body.
struct DemoErrorBody: ServerErrorResponse {
  var code: String
  var error: String
  var errorMessage: String? { error }
}

/// A demo product.
struct DemoProduct: Decodable, Sendable, Equatable {
  var id: Int
  var name: String
}

/// What `/counted/{key}` reports.
struct CountedHits: Decodable, Sendable, Equatable {
  var key: String
  var hits: Int
}

/// Everything a subscriber saw.
struct Received<Output> {
  var values: [Output]
  var completion: Subscribers.Completion<CourierError>

  var error: CourierError? {
    if case .failure(let error) = completion { return error }
    return nil
  }
}

/// Subscribes with `sink` and waits for the publisher to complete.
func receiveAll<Output: Sendable>(_ publisher: AnyPublisher<Output, CourierError>) async -> Received<Output> {
  let values = Locked<[Output]>([])
  let subscription = Locked<AnyCancellable?>(nil)
  let completion = await withCheckedContinuation {
    (continuation: CheckedContinuation<Subscribers.Completion<CourierError>, Never>) in
    let cancellable = publisher.sink { completion in
      continuation.resume(returning: completion)
    } receiveValue: { value in
      values.withLock { $0.append(value) }
    }
    subscription.withLock { $0 = cancellable }
  }
  subscription.withLock { $0 = nil }
  return Received(values: values.withLock { $0 }, completion: completion)
}

/// A value shared with callbacks, guarded by a lock.
final class Locked<Value>: @unchecked Sendable {  // @unchecked: `value` is only touched under `lock`.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}

/// Sleeps for `milliseconds`.
func pause(milliseconds: Int) async throws {
  try await Task.sleep(nanoseconds: UInt64(milliseconds) * 1_000_000)
}

/// Elapsed seconds on the monotonic clock.
struct Stopwatch {
  let start = ProcessInfo.processInfo.systemUptime
  var elapsed: TimeInterval { ProcessInfo.processInfo.systemUptime - start }
}
