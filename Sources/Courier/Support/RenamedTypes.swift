// Names that clashed with types of packages imported beside Courier, kept while code moves to the new names.

/// Renamed ``BodyStream``: swift-openapi-runtime declares an `HTTPBody` too.
@available(*, deprecated, renamed: "BodyStream")
public typealias HTTPBody = BodyStream
/// Renamed ``APIResponse``: Hummingbird declares a `Response` too.
@available(*, deprecated, renamed: "APIResponse")
public typealias Response<Value: Sendable> = APIResponse<Value>
/// Renamed ``CallContext``: Hummingbird declares a `RequestContext` too.
@available(*, deprecated, renamed: "CallContext")
public typealias RequestContext = CallContext
/// Renamed ``ServerEvent``: swift-openapi-runtime declares a `ServerSentEvent` too.
@available(*, deprecated, renamed: "ServerEvent")
public typealias ServerSentEvent = ServerEvent
/// Renamed ``CookieJar/Cookie``: Hummingbird declares a `Cookie` too.
@available(*, deprecated, renamed: "CookieJar.Cookie")
public typealias Cookie = CookieJar.Cookie
