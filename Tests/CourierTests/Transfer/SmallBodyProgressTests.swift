import Courier
import CourierTestSupport
import Foundation
import Testing

/// Download progress follows the bytes as they arrive on every transport, even for a body small enough to be read
/// whole when nobody watches.
@Suite(.timeLimit(.minutes(1))) struct SmallBodyProgressTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aSlowSmallBodyReportsProgressAsItArrives(_ transport: TransportKind) async throws {
    try await withDemoServer(transport) { client, _ in
      let seen = Locked<[Int64]>()
      let data = try await client.value(
        Endpoint<Data>.get("/download/65536").query("rate", 131_072).onDownloadProgress {
          seen.append($0.completedBytes)
        })
      #expect(data.count == 65536)
      let between = seen.values.filter { $0 > 0 && $0 < 65536 }
      #expect(between.count >= 2, "progress jumped: \(seen.values)")
      #expect(seen.values.last == 65536)
    }
  }
}
