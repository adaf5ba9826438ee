import Courier
import Foundation
import HTTPTypes

/// A response body taken as bytes, with the content type the server gave it: an image, a PDF, a CSV export.
///
/// Ask for it with ``Courier/Endpoint/binary(_:accept:)`` or ``Courier/Endpoint/image(_:)`` (or as an ``APIResource``'s
/// model) and the body is never parsed:
///
/// ```swift
/// let logo = try await client.value(Endpoint<BinaryContent>.binary("/brand/logo.png"))
/// print(logo.mediaType ?? "?", logo.data.count)  // image/png 48213
/// ```
public struct BinaryContent: Sendable, Hashable {
  /// The body bytes, as received.
  public var data: Data
  /// The `Content-Type` the server sent, with any parameters (`text/plain; charset=utf-8`).
  public var contentType: String?

  /// Creates content from bytes and a content type.
  public init(data: Data, contentType: String?) {
    self.data = data
    self.contentType = contentType
  }

  /// The content type without parameters, lowercased: `text/plain`.
  public var mediaType: String? {
    guard let contentType else { return nil }
    let type = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType
    return type.trimmingCharacters(in: .whitespaces).lowercased()
  }

  /// Whether the content type says the bytes are an image.
  public var isImage: Bool { mediaType?.hasPrefix("image/") ?? false }
}

extension BinaryContent: Decodable {
  /// Decodes bytes written as a Base64 string in JSON, without a content type.
  public init(from decoder: any Decoder) throws {
    self.init(data: try decoder.singleValueContainer().decode(Data.self), contentType: nil)
  }
}

extension BinaryContent {
  /// The value made from the raw body and the response head instead of JSON.
  init(body: Data, response: HTTPResponse) {
    self.init(data: body, contentType: response.headerFields[.contentType])
  }
}

extension Endpoint where Value == BinaryContent {
  /// A `GET` for bytes of any type, sent with `Accept: */*` unless you name one.
  ///
  /// ```swift
  /// let export = try await client.value(Endpoint<BinaryContent>.binary("/reports/7.csv", accept: "text/csv"))
  /// ```
  public static func binary(_ path: String, accept: String = "*/*") -> Endpoint {
    Endpoint(path).header(.accept(accept)).decode { data, response, _ in BinaryContent(body: data, response: response) }
  }

  /// A `GET` for an image, sent with `Accept: image/*`; a response that is not an image fails with
  /// `CourierError.Kind.decoding`. On Apple platforms, `BinaryContent.image` and
  /// `APIClient.image(_:)` turn it into a `UIImage` or `NSImage`.
  public static func image(_ path: String) -> Endpoint {
    binary(path, accept: "image/*").decode { data, response, _ in
      let content = BinaryContent(body: data, response: response)
      guard content.isImage else {
        throw CourierError(.decoding, "Expected an image but the response is \(content.contentType ?? "untyped")")
      }
      return content
    }
  }
}
