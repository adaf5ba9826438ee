import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import Testing

/// Download progress follows the bytes as they arrive on every transport, even for a body small enough to be read
/// whole when nobody watches.
@Suite(.hangGuard) struct SmallBodyProgressTests {
  @Test(arguments: TransportKind.allCases)
  func aSmallBodyReportsProgressAsItArrives(_ kind: TransportKind) async throws {
    let part = 16_384
    let seen = Locked<[Int64]>([])
    // The server sends the body in four parts, each only once the client has reported every byte before it: a
    // transport that reports progress only at the end never gets the rest, however fast or slow the machine runs.
    let server = try await ScriptedServer.start { connection in
      guard try await connection.readRequest() != nil else { return }
      try await connection.write("HTTP/1.1 200 OK\r\nContent-Length: \(4 * part)\r\n\r\n")
      for index in 0..<4 {
        try await connection.write(Array(repeating: UInt8(index), count: part))
        let sent = Int64((index + 1) * part)
        try await waitUntil("progress of \(sent) bytes") { (seen.values.last ?? 0) >= sent }
      }
    }
    defer { Task { await server.stop() } }
    try await withTransport(kind) { transport in
      let client = APIClient(configuration: .init(baseURL: server.baseURL, transport: transport))
      let data = try await client.value(
        Endpoint<Data>.get("/small").timeout(600).onDownloadProgress { seen.append($0.completedBytes) })
      #expect(data.count == 4 * part)
    }
    let reported = seen.values
    #expect(reported.last == Int64(4 * part))
    for sent in 1...3 {
      #expect(reported.contains { $0 >= Int64(sent * part) && $0 < Int64((sent + 1) * part) }, "\(reported)")
    }
  }
}
