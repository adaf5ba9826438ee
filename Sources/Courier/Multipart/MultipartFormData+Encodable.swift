import Foundation

extension MultipartFormData {
  /// A form encoded from a keyed `Encodable` (a struct, class or dictionary): `String`s, numbers, `Bool`s, dates and
  /// arrays become text fields, `Data` becomes a binary part, and ``MultipartFile``s become file parts.
  ///
  /// Field names follow the same rules as ``URLQueryEncoder``, with its options: nested values as `a[b]`, arrays as
  /// `tags[]` by default. The boundary is a fresh random one.
  ///
  /// ```swift
  /// struct Profile: Encodable, Sendable {
  ///   var name: String
  ///   var tags: [String]
  ///   var avatar: MultipartFile
  /// }
  /// let form = try MultipartFormData(encoding: profile)
  /// try await client.send(Endpoint<EmptyBody>.put("/profile").body(.multipart(form)))
  /// ```
  ///
  /// ``Endpoint/body(multipart:)`` and `Payload.multipart(value)` encode a value this way when the request is built,
  /// with the endpoint's or the client's query encoder options.
  ///
  /// - Parameters:
  ///   - value: The value; it must be keyed.
  ///   - options: The naming, array, bool, date and key options.
  /// - Throws: `EncodingError.invalidValue` naming the key path of a value the form cannot hold.
  public init(encoding value: some Encodable, options: URLQueryEncoder = URLQueryEncoder()) throws {
    self.init()
    let root = try QueryTreeEncoder.encodeRoot(value, keyEncoding: options.keyEncoding)
    var serializer = QuerySerializer(options: options)
    serializer.allowsBinary = true
    for field in try serializer.fields(for: root) {
      switch field.value {
      case .text(let text): append(text, name: field.name)
      case .binary(.data(let data)): append(data, name: field.name)
      case .binary(.attachment(let attachment)): append(attachment, name: field.name)
      }
    }
  }
}
