import Foundation

/// A call in flight whose upload and download progress can be watched as async sequences.
///
/// The call starts when the task is made. Each progress sequence keeps every value from the first (zero bytes), so
/// it can be iterated after the transfer has begun without missing any; both end when the call does.
///
/// ```swift
/// let upload = client.transfer(Endpoint<UploadReport>.post("/upload").body(multipart: form))
/// Task {
///   for await progress in upload.uploadProgress { bar.fraction = progress.fraction ?? 0 }
/// }
/// let report = try await upload.value
/// ```
public struct Transfer<Value: Decodable & Sendable>: Sendable {
  /// Progress of the request body. Every value is kept from the moment the transfer is created, so a consumer that
  /// starts late still sees the first (zero bytes) and every later one, in order; it ends when the transfer does.
  /// Iterate it once; use ``Endpoint/onUploadProgress(_:)`` to reach several observers.
  public let uploadProgress: AsyncStream<TransferProgress>
  /// Progress of the response body, kept and ended like ``uploadProgress``.
  public let downloadProgress: AsyncStream<TransferProgress>
  private let call: Task<APIResponse<Value>, any Error>

  init(client: APIClient, endpoint: Endpoint<Value>) {
    let reporters = TransferReporters(endpoint, sequences: true)
    // Both reporters exist when sequences are requested.
    uploadProgress = reporters.upload?.sequence ?? AsyncStream { $0.finish() }
    downloadProgress = reporters.download?.sequence ?? AsyncStream { $0.finish() }
    call = Task { try await client.send(endpoint, progress: reporters) }
  }

  /// The response, once the call has finished.
  ///
  /// - Throws: ``CourierError``, as ``APIClient/send(_:)`` does.
  public var response: APIResponse<Value> {
    get async throws {
      do {
        return try await call.value
      } catch {
        throw error as? CourierError ?? CourierError(transportFailure: error, request: nil)
      }
    }
  }

  /// The decoded value, once the call has finished.
  public var value: Value {
    get async throws { try await response.value }
  }

  /// Cancels the call; ``response`` then throws an error whose ``CourierError/isCancellation`` is true.
  public func cancel() {
    call.cancel()
  }
}

extension APIClient {
  /// Starts `endpoint` and returns the transfer, with its upload and download progress as async sequences.
  public func transfer<Value>(_ endpoint: Endpoint<Value>) -> Transfer<Value> {
    Transfer(client: self, endpoint: endpoint)
  }

}
