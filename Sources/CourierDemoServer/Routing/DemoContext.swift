#if canImport(Hummingbird)
import Hummingbird
import NIOCore

/// The request context every demo route sees: Hummingbird's core context plus the request's connection.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DemoContext: RequestContext {
  /// Storage Hummingbird needs (logger, path parameters, endpoint path).
  var coreContext: CoreRequestContextStorage
  /// The connection the request arrived on; an in-memory channel when tests drive the router directly.
  let channel: any Channel

  /// Creates the context for one request.
  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
}
#endif
