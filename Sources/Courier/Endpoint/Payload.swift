import Foundation

/// What an endpoint sends as its body, encoded when the request is built so encoding errors surface as
/// ``CourierError/Kind-swift.struct/encoding`` with the coding path.
///
/// ```swift
/// .body(.json(newUser))          // application/json, the client's or endpoint's JSONEncoder
/// .body(.form(credentials))      // application/x-www-form-urlencoded, the same engine as queries
/// .body(.data(png, contentType: "image/png"))
/// ```
public struct Payload: Sendable {
  /// What a payload needs to encode itself.
  struct Context: Sendable {
    var jsonEncoder: JSONEncoder
    var queryEncoder: URLQueryEncoder
  }

  let make: @Sendable (Context) throws -> (body: BodyStream, contentType: String?)

  /// A JSON body, encoded with `encoder` or else the endpoint's or the client's encoder (in the value's own date
  /// strategy when its type is ``DateCodingStrategyProviding`` and the request set none).
  public static func json(_ value: some Encodable & Sendable, encoder: JSONEncoder? = nil) -> Payload {
    guard let encoder else { return .json(model: value) }
    return Payload { _ in (BodyStream(try encoder.encode(value)), "application/json") }
  }

  /// An `application/x-www-form-urlencoded` body from any keyed `Encodable`, with the query encoder's options.
  @_disfavoredOverload
  public static func form(_ value: some Encodable & Sendable) -> Payload {
    Payload { context in
      let text = try context.queryEncoder.percentEncodedString(value)
      return (BodyStream(Data(text.utf8)), "application/x-www-form-urlencoded")
    }
  }

  /// An `application/x-www-form-urlencoded` body from an ordered ``QueryParameters``.
  public static func form(_ query: QueryParameters) -> Payload {
    Payload { context in
      let text = try context.queryEncoder.percentEncodedString(query)
      return (BodyStream(Data(text.utf8)), "application/x-www-form-urlencoded")
    }
  }

  /// Raw bytes with an optional content type.
  public static func data(_ data: Data, contentType: String? = nil) -> Payload {
    Payload { _ in (BodyStream(data), contentType) }
  }

  /// UTF-8 text, `text/plain; charset=utf-8` by default.
  public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> Payload {
    Payload { _ in (BodyStream(Data(text.utf8)), contentType) }
  }

  /// A `multipart/form-data` body, streamed with its length known up front.
  public static func multipart(_ form: MultipartFormData) -> Payload {
    Payload { _ in
      let (body, contentType) = try form.encoded()
      return (body, contentType)
    }
  }

  /// A `multipart/form-data` body encoded from a keyed `Encodable` as
  /// ``MultipartFormData/init(encoding:options:)`` does, using the endpoint's or the client's query encoder options.
  public static func multipart(_ value: some Encodable & Sendable) -> Payload {
    Payload { context in
      let (body, contentType) = try MultipartFormData(encoding: value, options: context.queryEncoder).encoded()
      return (body, contentType)
    }
  }

  /// A file streamed from disk, with its length known up front.
  public static func file(_ url: URL, contentType: String? = nil) -> Payload {
    Payload { _ in (try BodyStream.file(at: url), contentType ?? MIMEType.forFileName(url.lastPathComponent)) }
  }

  /// A body you built yourself, e.g. a stream.
  public static func body(_ body: BodyStream, contentType: String? = nil) -> Payload {
    Payload { _ in (body, contentType) }
  }
}
