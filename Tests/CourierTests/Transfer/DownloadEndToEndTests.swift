import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// `APIClient.download` against the demo API's downloads (ETag, Range, If-Range, dropped connections), over every
/// transport.
@Suite struct DownloadEndToEndTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-download-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  static func sha256(of bytes: Int, _ client: APIClient) async throws -> String {
    try await client.value(Endpoint<DownloadDigest>.get("/download/sha256/\(bytes)")).sha256
  }

  /// Writes what an interrupted download of `url` leaves beside `destination`: the bytes and the resume state.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func leavePartial(_ bytes: Data, of url: String, total: Int, validator: String, at destination: URL) throws {
    struct State: Encodable {
      var url: String
      var validator: String
      var total: Int
    }
    try bytes.write(to: URL(fileURLWithPath: destination.path + ".part"))
    let state = try JSONEncoder().encode(State(url: url, validator: validator, total: total))
    try state.write(to: URL(fileURLWithPath: destination.path + ".part.json"))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  static func leftovers(_ destination: URL) -> [String] {
    [".part", ".part.json"].filter { FileManager.default.fileExists(atPath: destination.path + $0) }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aWholeDownloadIsVerifiedAndMovedIntoPlace(_ kind: TransportKind) async throws {
    let destination = try Self.folder().appendingPathComponent("whole.bin")
    defer { removeTemporaryFile(destination) }
    try await withDemoServer(kind) { client, _ in
      let expected = try await Self.sha256(of: 3_000_000, client)
      let values = ProgressLog()
      let result = try await client.download(
        Endpoint<Data>.get("/download/3000000").onDownloadProgress(values.append), to: destination,
        sha256: expected.uppercased())
      #expect(result.bytes == 3_000_000)
      #expect(result.sha256 == expected)
      #expect(result.attempts == 1)
      #expect(result.resumedFrom == 0)
      #expect(try Data(contentsOf: destination).count == 3_000_000)
      #expect(Self.leftovers(destination).isEmpty)
      values.expectMonotonicFromZero()
      #expect(values.last == TransferProgress(completedBytes: 3_000_000, totalBytes: 3_000_000))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aDroppedConnectionIsResumedWithRangeAndTheChecksumMatches(_ kind: TransportKind) async throws {
    let destination = try Self.folder().appendingPathComponent("resumed.bin")
    defer { removeTemporaryFile(destination) }
    try await withDemoServer(kind) { client, _ in
      let expected = try await Self.sha256(of: 4_000_000, client)
      let values = ProgressLog()
      let result = try await client.download(
        Endpoint<Data>.get("/download/4000000/drop").query(["key": .string(UUID().uuidString), "after": 1_500_000])
          .onDownloadProgress(values.append),
        to: destination, sha256: expected)
      #expect(result.attempts == 2)
      #expect(result.resumptions.count == 1)
      #expect(result.resumptions.first.map { $0 > 0 && $0 <= 1_500_000 } == true)
      #expect(result.response.status == .partialContent)
      #expect(result.sha256 == expected)
      #expect(result.bytes == 4_000_000)
      values.expectMonotonicFromZero()
      #expect(values.last == TransferProgress(completedBytes: 4_000_000, totalBytes: 4_000_000))
      #expect(Self.leftovers(destination).isEmpty)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aPartialFileLeftByAFailedCallIsResumedByTheNext(_ kind: TransportKind) async throws {
    let destination = try Self.folder().appendingPathComponent("later.bin")
    defer { removeTemporaryFile(destination) }
    try await withDemoServer(kind) { client, _ in
      let expected = try await Self.sha256(of: 4_000_000, client)
      let endpoint = Endpoint<Data>.get("/download/4000000/drop").query([
        "key": .string(UUID().uuidString), "after": 2_000_000,
      ])
      let error = await #expect(throws: CourierError.self) {
        try await client.download(endpoint, to: destination, maxAttempts: 1)
      }
      #expect(error?.kind == .connectionLost)
      #expect(!FileManager.default.fileExists(atPath: destination.path))
      #expect(Self.leftovers(destination) == [".part", ".part.json"])
      let kept = try Data(contentsOf: URL(fileURLWithPath: destination.path + ".part")).count
      #expect(kept > 0)
      let result = try await client.download(endpoint, to: destination, sha256: expected)
      #expect(result.resumedFrom == Int64(kept))
      #expect(result.attempts == 1)
      #expect(result.sha256 == expected)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aPartialFileWithAStaleValidatorStartsOver(_ kind: TransportKind) async throws {
    let destination = try Self.folder().appendingPathComponent("stale.bin")
    defer { removeTemporaryFile(destination) }
    try await withDemoServer(kind) { client, server in
      let expected = try await Self.sha256(of: 100_000, client)
      try Self.leavePartial(
        Data(repeating: 0xEE, count: 5000), of: server.baseURL.absoluteString + "/download/100000", total: 100_000,
        validator: #""changed""#, at: destination)
      let result = try await client.download(
        Endpoint<Data>.get("/download/100000"), to: destination, sha256: expected)
      #expect(result.response.status == .ok, "If-Range did not match, so the whole file came")
      #expect(result.resumedFrom == 0)
      #expect(result.sha256 == expected)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aCompletePartialFileFinishesOnA416(_ kind: TransportKind) async throws {
    let destination = try Self.folder().appendingPathComponent("done.bin")
    defer { removeTemporaryFile(destination) }
    try await withDemoServer(kind) { client, server in
      let whole = try await client.value(Endpoint<Data>.get("/download/5000"))
      try Self.leavePartial(
        whole, of: server.baseURL.absoluteString + "/download/5000", total: 5000, validator: #""dl-5000""#,
        at: destination)
      let result = try await client.download(Endpoint<Data>.get("/download/5000"), to: destination)
      #expect(result.response.status == .rangeNotSatisfiable)
      #expect(result.bytes == 5000)
      #expect(try Data(contentsOf: destination) == whole)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aChecksumMismatchIsTypedAndLeavesNothingBehind(_ kind: TransportKind) async throws {
    let destination = try Self.folder().appendingPathComponent("bad.bin")
    defer { removeTemporaryFile(destination) }
    try await withDemoServer(kind) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.download(
          Endpoint<Data>.get("/download/10000"), to: destination,
          sha256: String(repeating: "0", count: 64))
      }
      #expect(error?.kind == .integrity)
      #expect(error?.detail.contains("SHA-256") == true)
      #expect(!FileManager.default.fileExists(atPath: destination.path))
      #expect(Self.leftovers(destination).isEmpty)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func anExistingFileIsKeptWhenReplacingIsOff(_ kind: TransportKind) async throws {
    let destination = try Self.folder().appendingPathComponent("keep.bin")
    defer { removeTemporaryFile(destination) }
    try Data("mine".utf8).write(to: destination)
    try await withDemoServer(kind) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.download(
          Endpoint<Data>.get("/download/10"), to: destination, replacesExistingFile: false)
      }
      #expect(error?.kind == .fileSystem)
      #expect(try Data(contentsOf: destination) == Data("mine".utf8))
      let replaced = try await client.download(Endpoint<Data>.get("/download/10"), to: destination)
      #expect(replaced.bytes == 10)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aStatusErrorIsTypedAndKeepsTheServersMessage(_ kind: TransportKind) async throws {
    let destination = try Self.folder().appendingPathComponent("missing.bin")
    defer { removeTemporaryFile(destination) }
    try await withDemoServer(kind) { client, _ in
      let error = await #expect(throws: CourierError.self) {
        try await client.download(Endpoint<Data>.get("/download/not-a-number"), to: destination)
      }
      #expect(error?.status == .badRequest)
      #expect(error?.serverError != nil)
      #expect(!FileManager.default.fileExists(atPath: destination.path))
      #expect(Self.leftovers(destination).isEmpty, "nothing to resume is left behind")
    }
  }
}
