import Foundation
import HTTPTypes

/// What became of an outbox item for good — delivered with the server's answer, or a dead letter with the answer it
/// got, if any — as a handler registered with ``Outbox/handleResults(ofKind:_:)`` receives it, also after a relaunch.
public struct OutboxResult: Sendable {
  /// The item, in its final state: ``OutboxItem/State/delivered`` or ``OutboxItem/State/deadLetter``.
  public let item: OutboxItem
  /// The server's answer, when one was recorded (a dead letter from a limit or a failed binding has none).
  public let response: HTTPResponse?
  /// The answer's body; empty without an answer.
  public let body: Data

  /// The result of `item` with `response` and `body`.
  public init(item: OutboxItem, response: HTTPResponse?, body: Data) {
    self.item = item
    self.response = response
    self.body = body
  }

  /// Whether the server applied the item.
  public var isDelivered: Bool { item.state == .delivered }

  /// The answer's body decoded as `type` from JSON.
  public func decode<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> Value {
    try decoder.decode(type, from: body)
  }
}
