import Courier
import CourierDemoServer
import Foundation

/// Runs `body` with the demo API started on 127.0.0.1 at a free port, and stops it afterwards.
func withDemoServer(_ body: (URL) async throws -> Void) async throws {
  let server = try await DemoServer().start(host: "127.0.0.1", port: 0)
  do {
    try await body(server.baseURL)
  } catch {
    await server.stop()
    throw error
  }
  await server.stop()
}
