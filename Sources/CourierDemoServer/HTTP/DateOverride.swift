#if canImport(Hummingbird)
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Lets a route choose the `Date` header of its response, which Hummingbird otherwise always sets to its own
/// (cached, up to a second old) clock.
///
/// A route sets both `Date` (what in-memory router tests see) and ``fieldName`` to the value it wants; on a live
/// server Hummingbird then overwrites `Date`, and ``Handler``, sitting in the channel pipeline, puts the route's
/// value back and removes ``fieldName`` before the head is written.
@available(macOS 14, iOS 17, tvOS 17, *)
enum DateOverride {
  /// The private response field carrying the wanted `Date`; never sent by a live server.
  static let fieldName = HTTPField.Name("X-Demo-Date-Override")!

  /// Sets `Date` to `value` in `headers`, in a way that survives Hummingbird.
  static func set(_ value: String, in headers: inout HTTPFields) {
    headers[.date] = value
    headers[fieldName] = value
  }

  /// The outbound handler applying overrides to every response head.
  final class Handler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Replaces `Date` with the override, if the head carries one.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
      guard case .head(var head) = unwrapOutboundIn(data), let date = head.headerFields[DateOverride.fieldName]
      else {
        context.write(data, promise: promise)
        return
      }
      head.headerFields[DateOverride.fieldName] = nil
      head.headerFields[.date] = date
      context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
  }
}
#endif
