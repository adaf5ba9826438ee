import Courier
import CourierTestSupport
import Crypto
import Foundation
import HTTPTypes
import Testing

/// Upload progress through the demo API's parser, over every transport.
@Suite struct UploadProgressEndToEndTests {
  // Not a whole number of the buffers a transport reads a file in.
  static let size = 8 * 1024 * 1024 - 12_345

  @available(macOS 14, iOS 17, tvOS 17, *)
  static func patternFile() throws -> URL {
    try temporaryFile(patternData(count: size, offset: 7), name: "clip.mov")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aFileUploadReportsProgressFromZeroToItsLength(_ kind: TransportKind) async throws {
    let file = try Self.patternFile()
    defer { removeTemporaryFile(file) }
    try await withDemoServer(kind) { client, _ in
      let values = ProgressLog()
      let report = try await client.value(
        Endpoint<RawUploadReport>.post("/upload/raw").body(.file(file)).onUploadProgress(values.append))
      #expect(report.size == Self.size)
      #expect(report.chunked == false)
      let sent = SHA256.hash(data: try Data(contentsOf: file)).map { String(format: "%02x", $0) }.joined()
      #expect(report.sha256 == sent, "the server received the file's bytes")
      values.expectMonotonicFromZero()
      #expect(values.last == TransferProgress(completedBytes: Int64(Self.size), totalBytes: Int64(Self.size)))
      #expect(values.all.count >= 3, "intermediate values: \(values.all.count)")
    }
  }

  /// A 307 sends the body again: a file body is read again from the start, whole.
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aFileBodyIsSentWholeAgainAfterA307(_ kind: TransportKind) async throws {
    let file = try Self.patternFile()
    defer { removeTemporaryFile(file) }
    try await withDemoServer(kind) { client, _ in
      let report = try await client.value(
        Endpoint<RawUploadReport>.post("/redirect/307").query(["to": "/upload/raw"]).body(.file(file)))
      let sent = SHA256.hash(data: try Data(contentsOf: file)).map { String(format: "%02x", $0) }.joined()
      #expect(report.size == Self.size)
      #expect(report.sha256 == sent)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aMultipartTaskDeliversEveryValueToALateConsumer(_ kind: TransportKind) async throws {
    let file = try Self.patternFile()
    defer { removeTemporaryFile(file) }
    var form = MultipartFormData()
    form.append("A clip", name: "title")
    form.append(fileAt: file, name: "clip")
    try await withDemoServer(kind) { client, _ in
      let task = client.transfer(Endpoint<UploadReport>.post("/upload").body(.multipart(form)))
      let report = try await task.value
      // Iterated only after the call has finished: nothing was lost.
      var values: [TransferProgress] = []
      for await progress in task.uploadProgress { values.append(progress) }
      let total = try #require(values.first?.totalBytes)
      #expect(values.first?.completedBytes == 0)
      #expect(values.last == TransferProgress(completedBytes: total, totalBytes: total))
      #expect(zip(values, values.dropFirst()).allSatisfy { $0.completedBytes < $1.completedBytes })
      #expect(total > Int64(Self.size), "the total counts the multipart framing")
      #expect(report.parts.last?.size == Self.size)
      var downloads: [TransferProgress] = []
      for await progress in task.downloadProgress { downloads.append(progress) }
      #expect(downloads.last?.isComplete == true)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aStreamedBodyOfUnknownLengthEndsAtTheBytesSent(_ kind: TransportKind) async throws {
    try await withDemoServer(kind) { client, _ in
      let chunks = AsyncStream<Data> { continuation in
        for index in 0..<32 { continuation.yield(Data(repeating: UInt8(index), count: 64 * 1024)) }
        continuation.finish()
      }
      let values = ProgressLog()
      let report = try await client.value(
        Endpoint<RawUploadReport>.post("/upload/raw").body(
          .body(BodyStream(chunks), contentType: "application/octet-stream")
        ).onUploadProgress(values.append))
      #expect(report.size == 32 * 64 * 1024)
      values.expectMonotonicFromZero()
      #expect(values.last?.completedBytes == Int64(32 * 64 * 1024))
    }
  }
}

/// What the demo API's `/upload/raw` saw.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RawUploadReport: Decodable, Sendable {
  var chunked: Bool
  var contentLength: Int?
  var size: Int
  var sha256: String
}
