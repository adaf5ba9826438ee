import Courier
import Foundation
import HTTPTypes

/// What a HAR recording hides: header values, query values and JSON or form body fields, by name.
///
/// The rules and the defaults are those of `LoggingInterceptor`, and so is the code that applies them:
/// `Authorization: Bearer <redacted>`, `?token=<redacted>`, `{"password":"<redacted>"}`. Names are compared
/// case-insensitively; a hidden value is replaced with the placeholder and its name is kept.
///
/// ```swift
/// var redaction = HARRedaction()
/// redaction.headers.insert(HTTPField.Name("X-Session")!)
/// redaction.bodyFields.insert("ssn")
/// let recorder = HARRecordingInterceptor(fileURL: url, redaction: redaction)
/// ```
///
/// ``HARReplayTransport`` applies the same rules to the requests it receives before it compares them with the
/// recording, so give both the same redaction.
public struct HARRedaction: Sendable {
  /// Headers whose values are hidden; by default `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and
  /// `X-API-Key`.
  public var headers: Set<HTTPField.Name>
  /// Query items whose values are hidden; by default `password`, `token`, `access_token`, `refresh_token`, `api_key`,
  /// `secret` and the like.
  public var queryKeys: Set<String>
  /// JSON fields (at any depth) and form fields whose values are hidden; the same default names as ``queryKeys``.
  public var bodyFields: Set<String>
  /// What a hidden value becomes; `<redacted>` by default.
  public var placeholder: String

  /// Creates a redaction; every argument has the default described on its property.
  public init(
    headers: Set<HTTPField.Name> = LoggingInterceptor.defaultRedactedHeaders,
    queryKeys: Set<String> = LoggingInterceptor.defaultRedactedKeys,
    bodyFields: Set<String> = LoggingInterceptor.defaultRedactedKeys,
    placeholder: String = "<redacted>"
  ) {
    self.headers = headers
    self.queryKeys = queryKeys
    self.bodyFields = bodyFields
    self.placeholder = placeholder
  }

  /// The redaction `logging` applies, so logs and recordings hide the same things.
  ///
  /// ```swift
  /// let logging = LoggingInterceptor(logger: logger) { $0.redactedBodyFields.insert("ssn") }
  /// let recorder = HARRecordingInterceptor(fileURL: url, redaction: HARRedaction(logging))
  /// ```
  public init(_ logging: LoggingInterceptor) {
    self.init(
      headers: logging.redactedHeaders, queryKeys: logging.redactedQueryKeys, bodyFields: logging.redactedBodyFields,
      placeholder: logging.placeholder)
  }

  /// Hides nothing: for recordings of test servers that hold no secrets.
  public static let none = HARRedaction(headers: [], queryKeys: [], bodyFields: [])

  var redactor: LogRedactor {
    LogRedactor(headers: headers, queryKeys: queryKeys, bodyFields: bodyFields, placeholder: placeholder)
  }
}
