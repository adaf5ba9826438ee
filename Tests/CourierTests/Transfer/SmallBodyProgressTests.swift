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
      // The body comes in five writes 0.1 s apart; a machine stalled for longer sends or reads them in one go, so a
      // call counts when progress came between them in any of three attempts. Progress only at the end fails all.
      var attempts: [[Int64]] = []
      for _ in 1...3 {
        let seen = Locked<[Int64]>()
        let data = try await client.value(
          Endpoint<Data>.get("/download/65536").query("rate", 131_072).onDownloadProgress {
            seen.append($0.completedBytes)
          })
        #expect(data.count == 65536)
        #expect(seen.values.last == 65536)
        attempts.append(seen.values)
        if seen.values.filter({ $0 > 0 && $0 < 65536 }).count >= 2 { return }
      }
      Issue.record("progress jumped in every attempt: \(attempts)")
    }
  }
}
