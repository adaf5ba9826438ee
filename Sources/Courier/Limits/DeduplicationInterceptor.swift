import Foundation
import HTTPTypes

/// Lets identical GET requests that are in flight at the same time share one transfer: the first goes to the
/// network, the others wait for its response and each gets a copy.
///
/// Requests are identical when their URL and every header match. By default only endpoints marked
/// ``Endpoint/deduplicated(_:)`` take part; pass `allGETs: true` to include every GET and HEAD.
///
/// ```swift
/// let client = APIClient(baseURL: url) { $0.interceptors = [DeduplicationInterceptor(allGETs: true)] }
/// ```
public struct DeduplicationInterceptor: Interceptor {
  private let registry = InFlightRegistry()
  /// Whether every GET and HEAD takes part, not only endpoints marked `deduplicated()`.
  public let allGETs: Bool

  /// Creates the interceptor.
  public init(allGETs: Bool = false) {
    self.allGETs = allGETs
  }

  /// Joins an identical transfer in flight, or starts one.
  public func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    guard request.method == .get || request.method == .head, allGETs || context[DeduplicationKey.self] else {
      return try await next(request, body, context)
    }
    let key = Self.key(for: request)
    let (response, data) = try await registry.run(key) {
      let (response, responseBody) = try await next(request, body, context)
      return (response, try await responseBody.collect())
    }
    return (response, BodyStream(data))
  }

  static func key(for request: HTTPRequest) -> String {
    var key = "\(request.method.rawValue) \(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "")"
    for field in request.headerFields { key += "\n\(field.name.canonicalName): \(field.value)" }
    return key
  }
}

/// The transfers in flight, by key, with how many callers wait on each; the last caller to leave cancels it.
actor InFlightRegistry {
  private struct Entry {
    var task: Task<(HTTPResponse, Data), any Error>
    var waiters: Int
  }

  private var entries: [String: Entry] = [:]

  func run(
    _ key: String,
    _ work: @escaping @Sendable () async throws -> (HTTPResponse, Data)
  ) async throws -> (HTTPResponse, Data) {
    let task: Task<(HTTPResponse, Data), any Error>
    if var entry = entries[key] {
      entry.waiters += 1
      entries[key] = entry
      task = entry.task
    } else {
      task = Task { try await work() }
      entries[key] = Entry(task: task, waiters: 1)
      Task { await self.remove(key, when: task) }
    }
    return try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      Task { await self.leave(key, task: task) }
    }
  }

  private func remove(_ key: String, when task: Task<(HTTPResponse, Data), any Error>) async {
    _ = await task.result
    if entries[key]?.task == task { entries[key] = nil }
  }

  private func leave(_ key: String, task: Task<(HTTPResponse, Data), any Error>) {
    guard var entry = entries[key], entry.task == task else { return }
    entry.waiters -= 1
    if entry.waiters == 0 {
      entry.task.cancel()
      entries[key] = nil
    } else {
      entries[key] = entry
    }
  }
}
