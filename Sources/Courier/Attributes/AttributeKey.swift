/// Declares a per-call setting: the type of its value and the value a call has when nobody set one.
///
/// The code that reads a setting declares its key, so an interceptor of your own can have per-endpoint settings
/// exactly as the built-in ones do:
///
/// ```swift
/// enum Priority: AttributeKey {
///   static let defaultValue = 0
/// }
///
/// extension Endpoint {
///   func priority(_ value: Int) -> Endpoint { attribute(Priority.self, value) }
/// }
///
/// struct PriorityHeader: Interceptor {
///   func intercept(_ request: HTTPRequest, body: BodyStream?, context: CallContext, next: Next) async throws
///     -> (HTTPResponse, BodyStream)
///   {
///     var request = request
///     request.headerFields[.init("X-Priority")!] = "\(context[Priority.self])"
///     return try await next(request, body, context)
///   }
/// }
/// ```
///
/// Keep the key `internal` to your module and offer a modifier, so that only your code reads and writes it.
public protocol AttributeKey: Sendable {
  /// The type of the setting's value.
  associatedtype Value: Sendable

  /// The value when the endpoint sets none.
  static var defaultValue: Value { get }
}
