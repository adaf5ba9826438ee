import Foundation
import HTTPTypes

extension APIClient {
  /// `interceptors` in front of `transport`. This last stage counts each attempt, runs the endpoint's
  /// transport-start handler before the first, reports upload progress as the transport takes the body, and
  /// reports each response head.
  static func chain(_ interceptors: [any Interceptor], transport: any HTTPTransport) -> InterceptorNext {
    interceptors.chain { request, body, context in
      let isFirst = context.events.countAttempt(bytes: body?.length.bytes ?? 0)
      if isFirst, let onStart = context[TransportStartKey.self] { await onStart() }
      let upload = context[TransferReportersKey.self]?.upload
      let options = TransportOptions(timeout: context.timeout, attributes: context.attributes)
      let (response, responseBody) = try await transport.send(
        request, body: upload.flatMap { body?.reporting(to: $0) } ?? body, options: options)
      if context.events.handler != nil {
        context.events.send(.responseReceived(callID: context.callID, response: response, attempt: context.attempt))
      }
      return (response, responseBody)
    }
  }
}
