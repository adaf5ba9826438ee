import AsyncHTTPClient
import Courier
import CourierOpenAPI
import CourierStyles
import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime
import Testing

/// Courier's public names beside those of the packages an app or a server imports with it (swift-openapi-runtime,
/// swift-http-types, AsyncHTTPClient, Hummingbird, Foundation): every type below is written without its module's
/// name, so this file compiles only while none of them is ambiguous. `Scripts/check-name-clashes.py` checks every
/// public name the same way.
@Suite struct ImportedTogetherTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func theirNamesAndCouriersResolveWithoutTheModulesName() async throws {
    // swift-openapi-runtime's, next to Courier's.
    let openAPIEvent = ServerSentEvent(event: "update", data: "x")
    let event = ServerEvent(event: "update", data: "x")
    #expect(openAPIEvent.data == event.data)
    let openAPIBody = HTTPBody("hello")
    let body = BodyStream(Data("hello".utf8))
    #expect(openAPIBody.length == .known(5))
    #expect(body.length == 5)

    // Hummingbird's, next to Courier's.
    let serverResponse = Response(status: .ok)
    let response: APIResponse<Data>? = nil
    #expect(serverResponse.status == .ok && response == nil)
    let serverCookie = Cookie(name: "session", value: "1")
    let jar = CookieJar()
    let stored: [CookieJar.Cookie] = jar.cookies
    #expect(serverCookie.name == "session" && stored.isEmpty)
    let router = Router(context: BasicRequestContext.self)
    router.get("/") { _, _ in "ok" }
    let context = CallContext()
    #expect(context.attempt == 1)
    let targets: TargetRouter<Pages>.Type = TargetRouter<Pages>.self
    #expect("\(targets)".contains("TargetRouter"))

    // AsyncHTTPClient's and swift-http-types' own names are untouched.
    let request = HTTPClientRequest(url: "http://127.0.0.1/")
    let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/")
    #expect(request.method == .GET && head.method == .get)
  }

  /// An API of one call, for the router's type.
  enum Pages: EndpointConvertible {
    case first
    var path: String { "/pages/1" }
  }
}
