extension HTTPArchive {
  /// A request as the archive keeps it.
  public struct Request: Codable, Sendable, Equatable {
    /// The method, e.g. `POST`.
    public var method: String
    /// The absolute URL, query included.
    public var url: String
    /// The protocol version, e.g. `HTTP/1.1`.
    public var httpVersion: String
    /// The cookies sent, from the `Cookie` header.
    public var cookies: [Cookie]
    /// The header fields, in order.
    public var headers: [NameValue]
    /// The query items, decoded and in order.
    public var queryString: [NameValue]
    /// The body, when there was one.
    public var postData: PostData?
    /// The size of the head in bytes; `-1` when not known.
    public var headersSize: Int
    /// The size of the body in bytes; `0` without one, `-1` when not known.
    public var bodySize: Int
    /// A free-form comment.
    public var comment: String?

    /// Creates a request record.
    public init(
      method: String,
      url: String,
      httpVersion: String = "HTTP/1.1",
      cookies: [Cookie] = [],
      headers: [NameValue] = [],
      queryString: [NameValue] = [],
      postData: PostData? = nil,
      headersSize: Int = -1,
      bodySize: Int = 0,
      comment: String? = nil
    ) {
      self.method = method
      self.url = url
      self.httpVersion = httpVersion
      self.cookies = cookies
      self.headers = headers
      self.queryString = queryString
      self.postData = postData
      self.headersSize = headersSize
      self.bodySize = bodySize
      self.comment = comment
    }
  }

  /// A request body.
  ///
  /// HAR 1.2 keeps request bodies as text only; a body that is not UTF-8 text is written in base64 and marked with
  /// the custom field `_encoding: "base64"` (custom HAR fields start with `_`), which Courier reads back.
  public struct PostData: Codable, Sendable, Equatable {
    /// The body's media type, from `Content-Type`.
    public var mimeType: String
    /// The body as text, or base64 when ``encoding`` says so.
    public var text: String
    /// `base64` for a body that is not text; `nil` otherwise.
    public var encoding: String?
    /// A free-form comment.
    public var comment: String?

    enum CodingKeys: String, CodingKey {
      case mimeType, text, comment
      case encoding = "_encoding"
    }

    /// Creates a body record.
    public init(mimeType: String, text: String, encoding: String? = nil, comment: String? = nil) {
      self.mimeType = mimeType
      self.text = text
      self.encoding = encoding
      self.comment = comment
    }
  }

  /// A header field or query item.
  public struct NameValue: Codable, Sendable, Equatable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String
    /// A free-form comment.
    public var comment: String?

    /// Creates a pair.
    public init(name: String, value: String, comment: String? = nil) {
      self.name = name
      self.value = value
      self.comment = comment
    }
  }

  /// A cookie sent with a request or set by a response.
  public struct Cookie: Codable, Sendable, Equatable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String
    /// The path it applies to.
    public var path: String?
    /// The domain it applies to.
    public var domain: String?
    /// When it expires, in ISO 8601.
    public var expires: String?
    /// Whether it is hidden from scripts.
    public var httpOnly: Bool?
    /// Whether it is sent over HTTPS only.
    public var secure: Bool?
    /// A free-form comment.
    public var comment: String?

    /// Creates a cookie record.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }
}
