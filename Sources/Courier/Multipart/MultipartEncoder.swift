import Foundation

/// Encodes an `Encodable` value as a multipart form: `String`s, numbers, `Bool`s, dates and arrays become text
/// fields, `Data` becomes a binary part, and ``Attachment``s become file parts.
///
/// Field names follow the same rules as ``URLQueryEncoder``, with its options: nested values as `a[b]`, arrays as
/// `tags[]` by default.
///
/// ```swift
/// struct Profile: Encodable, Sendable {
///   var name: String
///   var age: Int
///   var tags: [String]
///   var avatar: Attachment
/// }
/// let form = try MultipartEncoder().encode(profile)
/// ```
public struct MultipartEncoder: Sendable {
  /// The naming, array, bool, date and key options.
  public var options: URLQueryEncoder

  /// Creates an encoder.
  public init(options: URLQueryEncoder = URLQueryEncoder()) {
    self.options = options
  }

  /// Encodes `value`, which must be keyed (a struct, class or dictionary).
  ///
  /// - Throws: `EncodingError.invalidValue` naming the key path of a value the form cannot hold.
  public func encode(_ value: some Encodable) throws -> MultipartFormData {
    let root = try QueryTreeEncoder.encodeRoot(value, keyEncoding: options.keyEncoding)
    var serializer = QuerySerializer(options: options)
    serializer.allowsBinary = true
    var form = MultipartFormData()
    for field in try serializer.fields(for: root) {
      switch field.value {
      case .text(let text): form.append(text, name: field.name)
      case .binary(.data(let data)): form.append(data, name: field.name)
      case .binary(.attachment(let attachment)): form.append(attachment, name: field.name)
      }
    }
    return form
  }
}
