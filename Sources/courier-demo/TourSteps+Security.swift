import Courier
import Foundation

/// The tour's security steps: plain http refused outside loopback, a response over its limit ended early, and an
/// error that prints no secret.
@available(macOS 14, iOS 17, tvOS 17, *)
extension TourSteps {
  func runSecuritySteps() async throws {
    step("Plain http only to loopback unless allowed; bodies within their limit; no secret in error text")
    let cleartext = APIClient(baseURL: URL(string: "http://api.example.com")) { $0.transport = transport }
    do {
      try await cleartext.send(Endpoint<EmptyBody>.get("/users/me"))
    } catch let error as CourierError {
      print("  http://api.example.com → \(error.kind): refused before anything was sent")
    }
    do {
      try await client.send(Endpoint<Data>.get("/download/1073741824").maxResponseBytes(10 << 20))
    } catch let error as CourierError {
      print("  a 1 GiB body with a 10 MiB limit → \(error.kind), ended at the head")
    }
    do {
      try await client.send(
        Endpoint<EmptyBody>.get("/status/500").query("api_key", "tour-key-123").header(
          .authorization(bearer: "tour-secret"))
      )
    } catch let error as CourierError {
      let leaks = ["tour-key-123", "tour-secret"].filter { error.debugDescription.contains($0) }
      print("  \(error.description)")
      print("  secrets in the error's texts: \(leaks.isEmpty ? "none" : leaks.joined(separator: ", "))")
    }
    let russian = APIClient(baseURL: baseURL) { configuration in
      configuration.transport = transport
      configuration.messageLanguage = "ru"
    }
    do {
      try await russian.send(Endpoint<EmptyBody>.get("/status/503"))
    } catch let error as CourierError {
      print("  userMessage for a 503, in Russian: \(error.userMessage)")
    }
  }
}
