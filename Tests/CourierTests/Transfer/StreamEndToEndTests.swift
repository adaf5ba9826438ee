import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// `APIClient.stream` against the demo API's line stream, over every transport.
@Suite struct StreamEndToEndTests {
  struct Line: Decodable, Equatable {
    var index: Int
    var text: String
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func theFirstLineArrivesBeforeTheServerHasSentTheRest(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let gate = UUID().uuidString
      let stream = try await client.stream(
        Endpoint<Data>.get("/stream/lines").query(["count": 5, "gate": .string(gate)]))
      #expect(stream.response.status == .ok)
      #expect(stream.response.headerFields[.contentType] == "application/x-ndjson")
      var lines = stream.jsonLines(of: Line.self).makeAsyncIterator()
      // The server holds lines 1 to 4 until the gate opens, so reading line 0 proves it was streamed.
      #expect(try await lines.next() == Line(index: 0, text: "line 0"))
      try await client.send(Endpoint<EmptyBody>.post("/stream/release/\(gate)"))
      var rest: [Int] = []
      while let line = try await lines.next() { rest.append(line.index) }
      #expect(rest == [1, 2, 3, 4])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func linesAndDownloadProgressOfALongStream(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let values = ProgressLog()
      let stream = try await client.stream(
        Endpoint<Data>.get("/stream/lines").query(["count": 2000]).onDownloadProgress(values.append))
      var count = 0
      for try await line in stream.lines {
        #expect(line == #"{"index":\#(count),"text":"line \#(count)"}"#)
        count += 1
      }
      #expect(count == 2000)
      values.expectMonotonicFromZero()
      #expect(values.last?.isComplete == true, "an unknown length becomes the bytes read")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func anUnacceptableStatusThrowsWithTheServersError(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        _ = try await client.stream(Endpoint<Data>.get("/stream/lines").query(["count": -1]))
      }
      #expect(error?.status == .badRequest)
      #expect((error?.serverError as? DemoError)?.code == "invalid_parameter")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func stoppingEarlyCancelsTheTransferAndTheClientGoesOn(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      do {
        let stream = try await client.stream(Endpoint<Data>.get("/download/\(64 * 1024 * 1024)"))
        var received = 0
        for try await chunk in stream.body {
          received += chunk.count
          if received > 1024 * 1024 { break }
        }
        #expect(received > 1024 * 1024)
      }
      let after = try await client.value(Endpoint<Data>.get("/download/1000"))
      #expect(after.count == 1000)
    }
  }
}

/// Progress values recorded from a callback, with the checks every progress sequence must pass.
@available(macOS 14, iOS 17, tvOS 17, *)
final class ProgressLog: Sendable {
  private let values = Locked<[TransferProgress]>([])

  var all: [TransferProgress] { values.withLock { $0 } }
  var last: TransferProgress? { all.last }

  @Sendable func append(_ progress: TransferProgress) {
    values.withLock { $0.append(progress) }
  }

  /// Starts at zero and never repeats or goes back.
  func expectMonotonicFromZero(sourceLocation: SourceLocation = #_sourceLocation) {
    let all = self.all
    #expect(all.first?.completedBytes == 0, sourceLocation: sourceLocation)
    #expect(
      zip(all, all.dropFirst()).allSatisfy { $0.completedBytes < $1.completedBytes || $1.totalBytes != $0.totalBytes },
      "monotonic: \(all.prefix(5))…", sourceLocation: sourceLocation)
  }
}
