import Courier
import Foundation

/// Named a call a ``TargetRouter`` had in flight, so it could be cancelled alone. Cancel the calling task, or keep the
/// ``CallHandle`` that ``TargetRouter/request(_:as:completion:)`` returns, instead.
@available(
  *, deprecated, message: "cancel the calling task, or keep the CallHandle that request(_:as:completion:) returns"
)
public struct RequestToken: Sendable, Hashable {
  let id: UUID

  /// A new token.
  public init() {
    id = UUID()
  }
}

@available(
  *, deprecated, message: "cancel the calling task, or keep the CallHandle that request(_:as:completion:) returns"
)
extension TargetRouter {
  /// Sends `target` and returns the whole response; ``cancel(_:)-(RequestToken)`` with `token` cancels it.
  @discardableResult
  public func send<Value: Decodable & Sendable>(
    _ target: API,
    as type: Value.Type = Value.self,
    token: RequestToken
  ) async throws -> APIResponse<Value> {
    try await send(target.endpoint(as: type), key: token.id)
  }

  /// Sends `target` and returns the decoded value; ``cancel(_:)-(RequestToken)`` with `token` cancels it.
  @discardableResult
  public func request<Value: Decodable & Sendable>(
    _ target: API,
    as type: Value.Type = Value.self,
    token: RequestToken
  ) async throws -> Value {
    try await send(target, as: type, token: token).value
  }

  /// Cancels the calls started with `token` that are still in flight.
  public func cancel(_ token: RequestToken) {
    cancel(key: token.id)
  }
}
