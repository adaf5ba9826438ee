import Foundation

/// The progress reporters of one call: for the request body, the response body, or both.
struct TransferReporters: Sendable {
  var upload: ProgressReporter?
  var download: ProgressReporter?

  /// Reporters for the endpoint's progress callbacks; `nil` when it has none, so plain calls pay nothing.
  init?<Value>(_ endpoint: borrowing Endpoint<Value>) {
    guard endpoint.attributes[UploadProgressKey.self] != nil || endpoint.attributes[DownloadProgressKey.self] != nil
    else { return nil }
    self.init(endpoint, sequences: false)
  }

  /// Reporters for the endpoint's callbacks and, with `sequences`, for progress streams as well.
  init<Value>(_ endpoint: borrowing Endpoint<Value>, sequences: Bool) {
    let upload = endpoint.attributes[UploadProgressKey.self]
    let download = endpoint.attributes[DownloadProgressKey.self]
    if sequences || upload != nil {
      self.upload = ProgressReporter(sequence: sequences, callback: upload)
    }
    if sequences || download != nil {
      self.download = ProgressReporter(sequence: sequences, callback: download)
    }
  }

  /// Ends both sequences.
  func finish(complete: Bool) {
    upload?.finish(complete: complete)
    download?.finish(complete: complete)
  }
}

/// The progress reporters of a call in flight; the transport stage counts the request body's bytes with them.
enum TransferReportersKey: AttributeKey {
  static let defaultValue: TransferReporters? = nil
}
