import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes

@testable import Courier

/// An origin server in the test: answers with a closure, counts what reached it, stamps `Date` from the clock.
final class FakeOrigin: HTTPTransport {
  typealias Responder = @Sendable (HTTPRequest, Int) throws -> (HTTPResponse, String)
  private let responder: Responder
  private let received = Locked<[HTTPRequest]>([])
  let clock: TestCallClock

  init(clock: TestCallClock, _ responder: @escaping Responder) {
    self.clock = clock
    self.responder = responder
  }

  /// Every request that reached the origin.
  var requests: [HTTPRequest] { received.withLock { $0 } }
  var hits: Int { requests.count }

  func send(
    _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    let count = received.withLock { list in
      list.append(request)
      return list.count
    }
    var (response, text) = try responder(request, count)
    if response.headerFields[.date] == nil { response.headerFields[.date] = HTTPDate.format(clock.now) }
    return (response, BodyStream(Data(text.utf8)))
  }

  /// A client with a cache in front of this origin.
  func client(store: any CacheStore = InMemoryCacheStore(), policy: CachePolicy = .useProtocolRules) -> APIClient {
    APIClient(configuration: .init(baseURL: URL(string: "https://origin.test"), transport: self)).adding(
      CacheInterceptor(store: store, policy: policy, clock: clock))
  }
}

extension APIClient {
  func adding(_ interceptor: any Interceptor) -> APIClient {
    var configuration = self.configuration
    configuration.interceptors.append(interceptor)
    return APIClient(configuration: configuration)
  }
}

/// A response with these headers and `body`.
func reply(
  _ status: HTTPResponse.Status = .ok, _ headers: [String: String] = [:], _ body: String = "v1"
)
  -> (HTTPResponse, String)
{
  var fields = HTTPFields()
  for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields[HTTPField.Name(name)!] = value }
  return (HTTPResponse(status: status, headerFields: fields), body)
}
