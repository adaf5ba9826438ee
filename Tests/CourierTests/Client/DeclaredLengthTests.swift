import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import Testing

/// A streamed body whose bytes disagree with its declared length is refused by the call pipeline, which every
/// transport's bodies pass through, as `.invalidRequest` naming both lengths.
@Suite(.hangGuard) struct DeclaredLengthTests {
  @Test(arguments: [([17], "17"), ([10, 9], "at least 19")])
  func aBodyOfOtherLengthThanDeclaredIsRefused(chunkSizes: [Int], had: String) async throws {
    let transport = StubTransport(.post("/upload").reply(.status(.ok)))
    let client = APIClient.testing(transport: transport)
    let body = BodyStream(
      AsyncStream { continuation in
        for size in chunkSizes { continuation.yield(Data(repeating: 0x61, count: size)) }
        continuation.finish()
      }, length: 18)
    let error = await #expect(throws: CourierError.self) {
      try await client.send(
        Endpoint<Data>.post("/upload").body(.body(body, contentType: "application/octet-stream")).retries(false))
    }
    #expect(error?.kind == .invalidRequest, "\(String(describing: error))")
    #expect(error?.detail.contains("declared 18 bytes, the body had \(had)") == true, "\(String(describing: error))")
  }
}
