import Foundation

/// Reports an upload's progress as the transport takes the body's bytes.
enum UploadProgressKey: AttributeKey {
  static let defaultValue: (@Sendable (TransferProgress) -> Void)? = nil
}

/// Reports a download's progress as the response body is read.
enum DownloadProgressKey: AttributeKey {
  static let defaultValue: (@Sendable (TransferProgress) -> Void)? = nil
}

/// Runs once, when a call's request is first handed to the transport.
enum TransportStartKey: AttributeKey {
  static let defaultValue: (@Sendable () async -> Void)? = nil
}

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
    attribute(UploadProgressKey.self, handler)
  }

  /// Calls `handler` as the response body is read: zero first, then per chunk, ending at the body's length
  /// (`Content-Length`, or the bytes read when the server did not say).
  ///
  /// The handler runs on the transfer's thread and must return quickly; hop to the main actor for UI.
  public func onDownloadProgress(_ handler: @escaping @Sendable (TransferProgress) -> Void) -> Endpoint {
    attribute(DownloadProgressKey.self, handler)
  }

  /// Runs `handler` once, when the request is first handed to the transport: after it was built and every
  /// interceptor let it through, and before any byte is sent; the call waits for it.
  ///
  /// It does not run for a call that ends before that: a request that could not be built, a cache hit, a call
  /// cancelled or failed by an interceptor (such as a connectivity check that finds the device offline).
  ///
  /// ```swift
  /// let feed = Endpoint<Feed>.get("/feed").onTransportStart { await spinner.start() }
  /// ```
  public func onTransportStart(_ handler: @escaping @Sendable () async -> Void) -> Endpoint {
    attribute(TransportStartKey.self, handler)
  }
}
