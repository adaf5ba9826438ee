import Courier
import CourierDemoServer
import Foundation
import HTTPTypes

/// The tour's redirect step: Courier follows a redirect to another origin and leaves the credentials behind.
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
  }
}
