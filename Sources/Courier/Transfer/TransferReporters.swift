import Foundation

/// The progress reporters of one call: for the request body, the response body, or both.
struct TransferReporters: Sendable {
  var upload: ProgressReporter?
  var download: ProgressReporter?

  /// Reporters for the endpoint's progress callbacks; `nil` when it has none, so plain calls pay nothing.
  init?<Value>(_ endpoint: borrowing Endpoint<Value>) {
    guard endpoint.uploadProgress != nil || endpoint.downloadProgress != nil else { return nil }
    self.init(endpoint, sequences: false)
  }

  /// Reporters for the endpoint's callbacks and, with `sequences`, for progress streams as well.
  init<Value>(_ endpoint: borrowing Endpoint<Value>, sequences: Bool) {
    let upload = endpoint.uploadProgress
    let download = endpoint.downloadProgress
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
