import Foundation

/// Whether ``LoggingInterceptor`` logs a call at all.
enum LoggedKey: AttributeKey {
  static let defaultValue = true
}

/// Whether ``LoggingInterceptor`` may log a call's bodies.
enum LoggedBodiesKey: AttributeKey {
  static let defaultValue = true
}

extension Endpoint {
  /// Turns logging of this call on or off; read by ``LoggingInterceptor``.
  ///
  /// A call that is not logged leaves no line at all: no request, response, cURL command or error. Use it for
  /// noisy polling, or for calls whose URL or headers are sensitive beyond what redaction hides.
  ///
  /// ```swift
  /// let heartbeat = Endpoint<EmptyBody>.get("/ping").logging(false)
  /// ```
  public func logging(_ enabled: Bool) -> Endpoint {
    attribute(LoggedKey.self, enabled)
  }

  /// Lets ``LoggingInterceptor`` log this call's request and response bodies, or not.
  ///
  /// With `false`, the request and response lines (and the headers, redacted) are still logged, but no body is,
  /// and the cURL command leaves the body out. Use it for bodies that hold secrets redaction cannot name, such as
  /// documents or personal data.
  ///
  /// ```swift
  /// let upload = Endpoint<Receipt>.post("/records", body: medicalRecord).logsBodies(false)
  /// ```
  public func logsBodies(_ enabled: Bool) -> Endpoint {
    attribute(LoggedBodiesKey.self, enabled)
  }
}
