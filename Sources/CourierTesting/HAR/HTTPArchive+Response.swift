extension HTTPArchive {
  /// A response as the archive keeps it.
  public struct Response: Codable, Sendable, Equatable {
    /// The status code, e.g. `404`.
    public var status: Int
    /// The reason phrase, e.g. `Not Found`.
    public var statusText: String
    /// The protocol version, e.g. `HTTP/1.1`.
    public var httpVersion: String
    /// The cookies set, from the `Set-Cookie` headers.
    public var cookies: [Cookie]
    /// The header fields, in order.
    public var headers: [NameValue]
    /// The body.
    public var content: Content
    /// The `Location` of a redirect, or empty.
    public var redirectURL: String
    /// The size of the head in bytes; `-1` when not known.
    public var headersSize: Int
    /// The size of the body as received in bytes; `-1` when not known.
    public var bodySize: Int
    /// A free-form comment.
    public var comment: String?

    /// Creates a response record.
    public init(
      status: Int,
      statusText: String,
      httpVersion: String = "HTTP/1.1",
      cookies: [Cookie] = [],
      headers: [NameValue] = [],
      content: Content,
      redirectURL: String = "",
      headersSize: Int = -1,
      bodySize: Int,
      comment: String? = nil
    ) {
      self.status = status
      self.statusText = statusText
      self.httpVersion = httpVersion
      self.cookies = cookies
      self.headers = headers
      self.content = content
      self.redirectURL = redirectURL
      self.headersSize = headersSize
      self.bodySize = bodySize
      self.comment = comment
    }
  }

  /// A response body.
  public struct Content: Codable, Sendable, Equatable {
    /// The body's length in bytes.
    public var size: Int
    /// Bytes saved by compression, when known.
    public var compression: Int?
    /// The body's media type, from `Content-Type`; empty when there was none.
    public var mimeType: String
    /// The body as text, or base64 when ``encoding`` is `base64`; `nil` when not recorded.
    public var text: String?
    /// `base64` for a body that is not text.
    public var encoding: String?
    /// A free-form comment.
    public var comment: String?

    /// Creates a body record.
    public init(size: Int, mimeType: String, text: String?, encoding: String? = nil, comment: String? = nil) {
      self.size = size
      self.mimeType = mimeType
      self.text = text
      self.encoding = encoding
      self.comment = comment
    }
  }
}
