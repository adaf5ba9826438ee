#if canImport(Hummingbird)
/// The boundary of a `multipart/form-data` request, read from its `Content-Type` (RFC 2046 §5.1.1, RFC 7578 §4.1).
@available(macOS 14, iOS 17, tvOS 17, *)
enum MultipartBoundary {
  /// The most characters a boundary may have.
  static let maxLength = 70

  /// The boundary in `contentType`; throws when the type is not `multipart/form-data` or the boundary is missing or
  /// not 1 to 70 of RFC 2046's `bchars` (letters, digits, `'()+_,-./:=?` and inner spaces).
  static func parse(contentType: String?) throws(MultipartFailure) -> String {
    guard let contentType, let parsed = HeaderParameters(contentType) else {
      throw MultipartFailure("Content-Type must be multipart/form-data with a boundary parameter")
    }
    guard parsed.value == "multipart/form-data" else {
      throw MultipartFailure("Content-Type must be multipart/form-data, got '\(parsed.value)'")
    }
    let boundaries = parsed.all("boundary")
    guard boundaries.count == 1, let boundary = boundaries.first?.value else {
      throw MultipartFailure("Content-Type needs exactly one boundary parameter")
    }
    guard (1...maxLength).contains(boundary.utf8.count), boundary.utf8.allSatisfy(isBoundaryByte),
      boundary.last != " "
    else {
      throw MultipartFailure("Invalid boundary '\(boundary)': expected 1 to \(maxLength) RFC 2046 characters")
    }
    return boundary
  }

  /// `bchars` of RFC 2046 §5.1.1.
  static func isBoundaryByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return Array("'()+_,-./:=? ".utf8).contains(byte)
    }
  }
}
#endif
