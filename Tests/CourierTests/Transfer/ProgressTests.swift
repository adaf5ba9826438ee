import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// Progress values and the progress of calls over the stub transport.
@Suite struct ProgressTests {
  @Test func fractionsAndDescriptions() {
    #expect(TransferProgress(completedBytes: 512, totalBytes: 1024).fraction == 0.5)
    #expect(TransferProgress(completedBytes: 512, totalBytes: 1024).description == "512 of 1024 bytes (50%)")
    #expect(TransferProgress(completedBytes: 5, totalBytes: nil).fraction == nil)
    #expect(TransferProgress(completedBytes: 0, totalBytes: 0).fraction == 1)
    #expect(TransferProgress(completedBytes: 10, totalBytes: 10).isComplete)
    #expect(!TransferProgress(completedBytes: 9, totalBytes: nil).isComplete)
  }

  @Test func uploadAndDownloadProgressStartAtZeroAndEndAtTheTotal() async throws {
    let client = APIClient.testing(stubs: [.post("/upload").reply(.data(Data(repeating: 1, count: 3000)))])
    let chunks = AsyncStream<Data> { continuation in
      for _ in 0..<10 { continuation.yield(Data(repeating: 2, count: 100)) }
      continuation.finish()
    }
    let task = client.transfer(
      Endpoint<Data>.post("/upload").body(.body(BodyStream(chunks, length: 1000), contentType: "text/plain")))
    let data = try await task.value
    #expect(data.count == 3000)
    var uploads: [TransferProgress] = []
    for await progress in task.uploadProgress { uploads.append(progress) }
    var downloads: [TransferProgress] = []
    for await progress in task.downloadProgress { downloads.append(progress) }
    #expect(uploads.first == TransferProgress(completedBytes: 0, totalBytes: 1000))
    #expect(uploads.last == TransferProgress(completedBytes: 1000, totalBytes: 1000))
    #expect(uploads.count >= 3, "the body is taken in several chunks")
    #expect(zip(uploads, uploads.dropFirst()).allSatisfy { $0.completedBytes < $1.completedBytes })
    #expect(downloads.first?.completedBytes == 0)
    #expect(downloads.last == TransferProgress(completedBytes: 3000, totalBytes: 3000))
  }

  @Test func aRetriedUploadNeverGoesBack() async throws {
    let stub = StubTransport(.put("/file").reply(.status(.serviceUnavailable), .status(.noContent)))
    let values = Locked<[TransferProgress]>([])
    let client = APIClient.testing(transport: stub) {
      $0.interceptors = [RetryInterceptor(maxAttempts: 2, clock: TestCallClock())]
    }
    try await client.send(
      Endpoint<EmptyBody>.put("/file").body(
        .body(BodyStream(Data(repeating: 7, count: 500)), contentType: "text/plain")
      )
      .onUploadProgress { progress in values.withLock { $0.append(progress) } })
    let reported = values.withLock { $0 }
    #expect(stub.requests.count == 2)
    #expect(reported.first?.completedBytes == 0)
    #expect(reported.last == TransferProgress(completedBytes: 500, totalBytes: 500))
    #expect(zip(reported, reported.dropFirst()).allSatisfy { $0.completedBytes < $1.completedBytes })
  }

  @Test func aFailedCallEndsItsSequencesWithoutClaimingCompletion() async throws {
    let client = APIClient.testing(stubs: [.get("/big").reply(.data(Data(count: 100)))])
    let task = client.transfer(Endpoint<[String]>.get("/big"))
    await #expect(throws: CourierError.self) { try await task.value }
    var downloads: [TransferProgress] = []
    for await progress in task.downloadProgress { downloads.append(progress) }
    #expect(
      downloads.last == TransferProgress(completedBytes: 100, totalBytes: 100), "the body arrived; decoding failed")
    var uploads: [TransferProgress] = []
    for await progress in task.uploadProgress { uploads.append(progress) }
    #expect(uploads.isEmpty, "a call without a body reports no upload")
  }
}
