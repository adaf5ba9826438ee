import Foundation

extension Endpoint {
  /// Calls `handler` as the request body goes out: zero first, then as the transport takes bytes, ending at the
  /// body's length. Values never go back, even when a retry sends the body again.
  ///
  /// The handler runs on the transfer's thread and must return quickly; hop to the main actor for UI.
  ///
  /// ```swift
  /// let upload = Endpoint<EmptyBody>.post("/upload").body(multipart: form).onUploadProgress { progress in
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

  /// Runs `handler` once, when the request has gone out on a connection, as the transport reports it through
  /// ``TransportOptions/requestSent``, or when its response began. The call returns only after `handler`.
  /// AsyncHTTPClient reports the request head written; URLSession reports a body going out, and for a request
  /// without one counts it sent after 0.1 s with the session without failing.
  ///
  /// It does not run for a call that never reached a server: a request that could not be built, a cache hit, a call
  /// cancelled or failed by an interceptor (such as a connectivity check that finds the device offline), or a
  /// connection that was refused or could not be made, which transports report at once.
  ///
  /// ```swift
  /// let feed = Endpoint<Feed>.get("/feed").onTransportStart { await spinner.start() }
  /// ```
  public func onTransportStart(_ handler: @escaping @Sendable () async -> Void) -> Endpoint {
    with { $0.transportStart = handler }
  }
}
