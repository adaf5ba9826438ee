import Foundation

/// A file to send in a multipart form: bytes in memory or a file on disk, with its file name and MIME type.
///
/// Use it as a property of a struct you send with ``Endpoint/body(multipart:)``, or add it to a
/// ``MultipartFormData``:
///
/// ```swift
/// struct NewPost: Encodable, Sendable {
///   var title: String
///   var photo: MultipartFile
/// }
/// let post = NewPost(title: "Hi", photo: MultipartFile(fileURL: photoURL))   // image/jpeg from ".jpg"
/// try await client.send(Endpoint<Post>.post("/posts").body(multipart: post))
/// ```
public struct MultipartFile: Sendable, Hashable, Encodable {
  /// Where the bytes come from.
  enum Source: Sendable, Hashable {
    /// Bytes in memory.
    case data(Data)
    /// A file, streamed when the request is sent.
    case file(URL)
  }

  /// Where the bytes come from.
  var source: Source
  /// The file name sent in `Content-Disposition`.
  public var fileName: String
  /// The part's `Content-Type`.
  public var mimeType: String

  /// An attachment from bytes in memory; the MIME type is inferred from the file name's extension when omitted.
  public init(data: Data, fileName: String, mimeType: String? = nil) {
    source = .data(data)
    self.fileName = fileName
    self.mimeType = mimeType ?? MIMEType.forFileName(fileName)
  }

  /// An attachment streamed from a file; the file name defaults to the file's and the MIME type is inferred from its
  /// extension when omitted.
  public init(fileURL: URL, fileName: String? = nil, mimeType: String? = nil) {
    source = .file(fileURL)
    self.fileName = fileName ?? fileURL.lastPathComponent
    self.mimeType = mimeType ?? MIMEType.forFileName(self.fileName)
  }

  /// Encoders other than the multipart form's (``MultipartFormData/init(encoding:options:)``) see only the file name.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(fileName)
  }
}
