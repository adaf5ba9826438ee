import Foundation

/// The progress reporters of one call: for the request body, the response body, or both.
struct TransferReporters: Sendable {
  var upload: ProgressReporter?
  var download: ProgressReporter?

  /// Reporters for the endpoint's progress callbacks; `nil` when it has none, so plain calls pay nothing.
  init?<Value>(_ endpoint: Endpoint<Value>) {
    guard endpoint.uploadProgress != nil || endpoint.downloadProgress != nil else { return nil }
    self.init(endpoint, sequences: false)
  }

  /// Reporters for the endpoint's callbacks and, with `sequences`, for ``ProgressSequence``s as well.
  init<Value>(_ endpoint: Endpoint<Value>, sequences: Bool) {
    if sequences || endpoint.uploadProgress != nil {
      upload = ProgressReporter(sequence: sequences, callback: endpoint.uploadProgress)
    }
    if sequences || endpoint.downloadProgress != nil {
      download = ProgressReporter(sequence: sequences, callback: endpoint.downloadProgress)
    }
  }

  /// Ends both sequences.
  func finish(complete: Bool) {
    upload?.finish(complete: complete)
    download?.finish(complete: complete)
  }
}
