import Foundation

extension Endpoint {
  /// Calls `handler` as the request body goes out: zero first, then as the transport takes bytes, ending at the
  /// body's length. Values never go back, even when a retry sends the body again.
  ///
  /// The handler runs on the transfer's thread and must return quickly; hop to the main actor for UI.
  ///
  /// ```swift
  /// let upload = Endpoint<Empty>.post("/upload").body(multipart: form).onUploadProgress { progress in
  ///   print(progress)  // "524288 of 1048576 bytes (50%)"
  /// }
  /// ```
  public func onUploadProgress(_ handler: @escaping @Sendable (TransferProgress) -> Void) -> Endpoint {
    with { $0.uploadProgress = handler }
  }

  /// Calls `handler` as the response body is read: zero first, then per chunk, ending at the body's length
  /// (`Content-Length`, or the bytes read when the server did not say).
  ///
  /// The handler runs on the transfer's thread and must return quickly; hop to the main actor for UI.
  public func onDownloadProgress(_ handler: @escaping @Sendable (TransferProgress) -> Void) -> Endpoint {
    with { $0.downloadProgress = handler }
  }
}
