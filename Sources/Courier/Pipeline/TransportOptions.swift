import Foundation

/// Per-request options handed to a transport.
public struct TransportOptions: Sendable {
  /// How long the request may take, in seconds. URLSession treats it as the longest wait for data.
  public var timeout: TimeInterval
  /// The call's attributes, for a transport with per-call settings of its own; read one with
  /// `options[SomeKey.self]`.
  package var attributes: Attributes
  /// Courier's hook for the moment the request went out on a connection, set when someone listens for it (a start
  /// handler, an event handler). A transport calls it as soon as its engine reports the request head or body written,
  /// and never for a connection that was not made; Courier calls it itself when the response head arrives, so the
  /// call's start handler and `started` event wait for a real request. Calling it more than once is harmless.
  public var requestSent: (@Sendable () -> Void)?

  /// Creates options; the timeout defaults to 60 seconds. Set per-call settings with `options[SomeKey.self] = value`.
  public init(timeout: TimeInterval = 60) {
    self.init(timeout: timeout, attributes: Attributes())
  }

  /// Options carrying a call's attributes.
  package init(timeout: TimeInterval, attributes: Attributes) {
    self.timeout = timeout
    self.attributes = attributes
  }

  /// The options for one exchange of a call: its timeout, attributes, limit, idle timeout and how its body is read.
  init(_ context: CallContext) {
    timeout = context.timeout
    attributes = context.attributes
    deliversBodyIncrementally = context.deliversBodyIncrementally
    maxResponseBytes = context.maxResponseBytes
    idleTimeout = context.idleTimeout
  }

  /// The call's value for `key` (a per-call setting for a transport of your own; see ``AttributeKey``), or the key's
  /// default.
  public subscript<Key: AttributeKey>(key: Key.Type) -> Key.Value {
    get { attributes[key] }
    set { attributes[key] = newValue }
  }

  /// Whether the caller reads the response body as it arrives (``APIClient/stream(_:)``, downloads, download
  /// progress): a transport that buffers small bodies for speed hands this one on chunk by chunk instead.
  public package(set) var deliversBodyIncrementally = false

  /// The most response body bytes the call will read (``APIClient/Configuration/maxResponseBytes``), or `nil` when
  /// the caller reads the body as it arrives. A transport that receives ahead of its reader stops at this many
  /// bytes, so that memory stays bounded; Courier reports ``CourierError/Kind-swift.struct/responseTooLarge``.
  public package(set) var maxResponseBytes: Int?

  /// The call's idle timeout (``Endpoint/idleTimeout(_:)``), which Courier keeps by watching the body's chunks
  /// arrive: a transport hands the body on as it arrives when one is set, rather than collecting it first.
  public package(set) var idleTimeout: TimeInterval?

  /// The timeout to give an engine's own timer, if it has one: ``timeout`` rounded up to whole seconds plus one, so
  /// that the engine (libcurl truncates timeouts below a second) never ends a request before Courier's deadline does.
  /// Courier keeps the deadline itself, to the millisecond, by cancelling the task the transport's `send` runs in.
  package var engineTimeout: TimeInterval {
    guard timeout.isFinite else { return timeout }
    return max(1, timeout.rounded(.up)) + 1
  }
}
