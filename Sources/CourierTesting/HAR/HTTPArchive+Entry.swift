import Foundation

extension HTTPArchive {
  /// One exchange: when it started, how long it took, the request and the response.
  public struct Entry: Codable, Sendable, Equatable {
    /// When the request started, in ISO 8601 with milliseconds: `2026-05-01T09:30:12.345Z`.
    public var startedDateTime: String
    /// The whole exchange in milliseconds: the sum of the ``timings``.
    public var time: Double
    /// The request.
    public var request: Request
    /// The response.
    public var response: Response
    /// What a browser cache held; Courier writes an empty object.
    public var cache: Cache
    /// How long each phase took.
    public var timings: Timings
    /// The server's IP address, when known.
    public var serverIPAddress: String?
    /// A free-form comment.
    public var comment: String?

    /// Creates an entry.
    public init(
      startedDateTime: String,
      time: Double,
      request: Request,
      response: Response,
      cache: Cache = Cache(),
      timings: Timings,
      comment: String? = nil
    ) {
      self.startedDateTime = startedDateTime
      self.time = time
      self.request = request
      self.response = response
      self.cache = cache
      self.timings = timings
      self.comment = comment
    }
  }

  /// What a browser cache held before and after an exchange; always empty in Courier's archives.
  public struct Cache: Codable, Sendable, Equatable {
    /// A free-form comment.
    public var comment: String?

    /// An empty cache object.
    public init(comment: String? = nil) {
      self.comment = comment
    }
  }

  /// The phases of an exchange, in milliseconds; a phase that does not apply or is not known is `-1` (only the
  /// optional ones may be).
  public struct Timings: Codable, Sendable, Equatable {
    /// Time queued before the request could be sent.
    public var blocked: Double?
    /// DNS resolution.
    public var dns: Double?
    /// Making the connection.
    public var connect: Double?
    /// Sending the request.
    public var send: Double
    /// Waiting for the first byte of the response.
    public var wait: Double
    /// Reading the response.
    public var receive: Double
    /// The TLS handshake.
    public var ssl: Double?

    /// Creates timings; Courier sees only the whole exchange, so it writes it all as `wait`.
    public init(send: Double = 0, wait: Double, receive: Double = 0) {
      self.send = send
      self.wait = wait
      self.receive = receive
    }
  }
}
