import Foundation
import HTTPTypes

/// Sees one exchange with the transport: may change the request just before it goes out (a trace header), and
/// returns what to run with the response head or the failure.
package typealias ExchangeObserver =
  @Sendable (inout HTTPRequest) -> @Sendable (Result<HTTPResponse, any Error>) -> Void

extension CallContext {
  /// Adds `observer` to the exchanges the rest of this call has with the transport.
  package mutating func observeExchanges(_ observer: @escaping ExchangeObserver) {
    exchangeObservers.append(observer)
  }
}

extension HTTPRequest {
  /// The request's URL with secrets hidden, as logs and errors show it.
  package var redactedURL: String { CourierError.redactor.url(of: self) }
}
