import Foundation
import HTTPTypes

extension APIClient {
  /// `interceptors` in front of `transport`, which counts each attempt and reports each response head.
  static func chain(_ interceptors: [any Interceptor], transport: any HTTPTransport) -> InterceptorNext {
    interceptors.chain { request, body, context in
      if case .known(let length) = body?.length {
        context.events.countAttempt(bytes: length)
      } else {
        context.events.countAttempt(bytes: 0)
      }
      let (response, responseBody) = try await transport.send(request, body: body, options: context.transportOptions)
      if context.events.handler != nil {
        context.events.send(.responseReceived(callID: context.callID, response: response, attempt: context.attempt))
      }
      return (response, responseBody)
    }
  }
}
