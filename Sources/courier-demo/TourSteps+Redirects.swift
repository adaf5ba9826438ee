import Courier
import CourierDemoServer
import Foundation
import HTTPTypes

/// The tour's redirect and cookie steps: Courier follows a redirect to another origin and leaves the credentials
/// behind, and keeps the cookies servers set in its own jar, the same way on every transport.
@available(macOS 14, iOS 17, tvOS 17, *)
extension TourSteps {
  func runRedirectSteps() async throws {
    step("A redirect to another origin, followed by Courier: credentials stay behind")
    let other = try await DemoServer().start(host: "127.0.0.1", port: 0)
    do {
      let target = other.baseURL.appendingPathComponent("echo/elsewhere").absoluteString
      let response = try await client.send(
        Endpoint<Echo>.get("/redirect/302").query("to", target).header(.authorization(bearer: "tour-secret")))
      let authorization = response.value.headers.first { $0.first == "Authorization" }?.last ?? "none"
      print("  302 → \(response.redirects.map(\.absoluteString).joined(separator: " → "))")
      print("  the other origin received Authorization: \(authorization)")
    } catch {
      await other.stop()
      throw error
    }
    await other.stop()

    step("Cookies kept by Courier (RFC 6265), set on a redirect and sent back")
    let set = try await client.send(Endpoint<CookieList>.get("/cookies/set").query("theme", "dark"))
    print("  /cookies/set?theme=dark → \(set.redirects.map(\.path).joined(separator: " → ")): \(set.value.cookies)")
    let jar = client.configuration.cookies?.cookies.map(\.description) ?? []
    print("  the client's jar: \(jar.joined(separator: ", "))")
    let cleared = try await client.value(Endpoint<CookieList>.get("/cookies/delete").query("theme", ""))
    print("  /cookies/delete?theme → \(cleared.cookies) (Max-Age=0 expired it)")
  }
}

/// What `/cookies` answers.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CookieList: Decodable, Sendable {
  var cookies: [String: String]
}
