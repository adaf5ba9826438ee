import Foundation
import HTTPTypes

/// What interceptors know about a call besides the request itself: the endpoint's attributes, the timeout, the
/// attempt number and where to report events.
public struct CallContext: Sendable {
  /// The endpoint's per-call settings; read one with `context[SomeKey.self]`.
  package var attributes: Attributes
  /// How long the call may take, in seconds: the endpoint's timeout, else the client's.
  public var timeout: TimeInterval
  /// The attempt number, from 1; the retry interceptor increases it.
  public var attempt: Int
  /// Identifies the call in events and logs.
  public let callID: UInt64
  /// Receives the call's events.
  var events: EventSink

  // What Courier itself reads as the call goes (set by `Call`): typed fields, never attributes.

  /// Whether the caller reads the response body as it arrives (a stream, a download, download progress): the cache
  /// stays out of the way and the transport hands the body on chunk by chunk.
  var deliversBodyIncrementally = false
  /// The most body bytes a buffered call reads; `nil` when the caller reads the body as it arrives.
  var maxResponseBytes: Int?
  /// The longest the call may go without receiving a byte.
  var idleTimeout: TimeInterval?
  /// How redirects are followed: the endpoint's policy, else the client's.
  var redirects = RedirectPolicy.follow
  /// The endpoint's transport-start handler, run once when the first request went out.
  var transportStart: (@Sendable () async -> Void)?
  /// The call's progress reporters; the exchange counts the request body's bytes with them.
  var progress: TransferReporters?
  /// Told about every exchange with the transport (each retry, each redirect hop): tracing.
  var exchangeObservers: [ExchangeObserver] = []

  /// Creates a context; the client makes one per call, and tests make one to run an interceptor alone (set its
  /// attributes with `context[SomeKey.self] = value`).
  public init(timeout: TimeInterval = 60, attempt: Int = 1, callID: UInt64 = 0) {
    self.init(attributes: Attributes(), timeout: timeout, attempt: attempt, callID: callID, events: EventSink())
  }

  /// A context carrying `attributes`, e.g. an endpoint's.
  package init(attributes: Attributes, timeout: TimeInterval = 60, attempt: Int = 1, callID: UInt64 = 0) {
    self.init(attributes: attributes, timeout: timeout, attempt: attempt, callID: callID, events: EventSink())
  }

  init(attributes: Attributes, timeout: TimeInterval, attempt: Int, callID: UInt64, events: EventSink) {
    self.attributes = attributes
    self.timeout = timeout
    self.attempt = attempt
    self.callID = callID
    self.events = events
  }

  /// The call's value for `key`, or the key's default.
  public subscript<Key: AttributeKey>(key: Key.Type) -> Key.Value {
    get { attributes[key] }
    set { attributes[key] = newValue }
  }
}
