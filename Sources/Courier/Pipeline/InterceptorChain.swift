import Foundation
import HTTPTypes

extension Array where Element == any Interceptor {
  /// Composes the interceptors in order in front of `terminal`.
  func chain(
    ending terminal:
      @escaping @Sendable (HTTPRequest, BodyStream?, CallContext) async throws -> (HTTPResponse, BodyStream)
  ) -> InterceptorNext {
    reversed().reduce(InterceptorNext(terminal)) { next, interceptor in
      InterceptorNext { request, body, context in
        try await interceptor.intercept(request, body: body, context: context, next: next)
      }
    }
  }
}
