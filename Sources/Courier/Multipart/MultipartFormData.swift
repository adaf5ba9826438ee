import Foundation

/// A `multipart/form-data` body (RFC 7578) built part by part: text fields, bytes, and files streamed from disk.
///
/// The body is streamed with its `Content-Length` computed up front from the file sizes, so a 2 GiB video is never
/// held in memory. A missing or unreadable file fails with ``CourierError/Kind-swift.struct/invalidRequest`` before
/// a single byte is sent.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Summer", name: "album")
/// form.append(fileAt: videoURL, name: "video")                      // video/mp4 from the extension
/// form.append(thumbnail, name: "thumb", fileName: "thumb.png")
/// try await client.send(Endpoint<Upload>.post("/upload").body(.multipart(form)))
/// ```
public struct MultipartFormData: Sendable {
  struct Part: Sendable {
    var name: String
    var fileName: String?
    var mimeType: String?
    var content: Content
  }

  enum Content: Sendable {
    case data(Data)
    case file(URL)
  }

  /// The boundary; a fresh random one unless you chose it. If it occurs inside an in-memory part, encoding picks
  /// another.
  public let boundary: String
  var parts: [Part] = []

  /// An empty form with a random boundary.
  public init() {
    boundary = Self.randomBoundary()
  }

  /// An empty form with the given boundary (1 to 70 characters; RFC 2046).
  public init(boundary: String) {
    self.boundary = boundary
  }

  /// The number of parts.
  public var count: Int { parts.count }

  /// Adds a text field.
  public mutating func append(_ value: String, name: String) {
    parts.append(Part(name: name, fileName: nil, mimeType: nil, content: .data(Data(value.utf8))))
  }

  /// Adds bytes; with a file name the part is a file upload (MIME type inferred from the extension when omitted).
  public mutating func append(_ data: Data, name: String, fileName: String? = nil, mimeType: String? = nil) {
    let type = mimeType ?? fileName.map(MIMEType.forFileName) ?? "application/octet-stream"
    parts.append(Part(name: name, fileName: fileName, mimeType: type, content: .data(data)))
  }

  /// Adds a file, streamed from disk when the request is sent; the file name defaults to the file's and the MIME
  /// type is inferred from the extension when omitted.
  public mutating func append(fileAt url: URL, name: String, fileName: String? = nil, mimeType: String? = nil) {
    let name = (name: name, file: fileName ?? url.lastPathComponent)
    parts.append(
      Part(
        name: name.name, fileName: name.file, mimeType: mimeType ?? MIMEType.forFileName(name.file),
        content: .file(url)))
  }

  /// Adds a ``MultipartFile``.
  public mutating func append(_ attachment: MultipartFile, name: String) {
    switch attachment.source {
    case .data(let data): append(data, name: name, fileName: attachment.fileName, mimeType: attachment.mimeType)
    case .file(let url): append(fileAt: url, name: name, fileName: attachment.fileName, mimeType: attachment.mimeType)
    }
  }

  /// Encodes the form: the streamed body with its known length, and the `Content-Type` naming the boundary.
  ///
  /// - Throws: ``CourierError/Kind-swift.struct/invalidRequest`` for a missing or unreadable file, a boundary that is
  ///   not valid, or a MIME type containing CR or LF.
  public func encoded() throws -> (body: BodyStream, contentType: String) {
    var files: [URL: Int64] = [:]
    for part in parts {
      if case .file(let url) = part.content { files[url] = try FileChunks.size(of: url) }
      if let mimeType = part.mimeType, mimeType.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
        throw CourierError(.invalidRequest, "The MIME type of part \"\(part.name)\" contains CR or LF")
      }
    }
    let boundary = try usableBoundary()
    var segments: [BodySegment] = []
    var pending = Data()
    for part in parts {
      pending.append(Data("--\(boundary)\r\n".utf8))
      pending.append(Data(Self.headers(for: part).utf8))
      switch part.content {
      case .data(let data):
        pending.append(data)
      case .file(let url):
        segments.append(.data(pending))
        pending = Data()
        segments.append(.file(url, size: files[url] ?? 0))
      }
      pending.append(Data("\r\n".utf8))
    }
    pending.append(Data("--\(boundary)--\r\n".utf8))
    segments.append(.data(pending))
    let length = segments.reduce(Int64(0)) { $0 + $1.length }
    var body = BodyStream(MultipartStream(segments: segments), length: length, isRepeatable: true)
    body.segments = segments
    return (body, "multipart/form-data; boundary=\(boundary)")
  }

  /// The boundary, or a fresh one when it occurs inside an in-memory part.
  func usableBoundary() throws -> String {
    guard (1...70).contains(boundary.count), boundary.allSatisfy(Self.isBoundaryCharacter), boundary.last != " " else {
      throw CourierError(.invalidRequest, "\"\(boundary)\" is not a valid multipart boundary (RFC 2046)")
    }
    var candidate = boundary
    for _ in 0..<8 {
      let marker = Data("--\(candidate)".utf8)
      let clashes = parts.contains { part in
        if case .data(let data) = part.content { return data.range(of: marker) != nil }
        return false
      }
      if !clashes { return candidate }
      candidate = Self.randomBoundary()
    }
    throw CourierError(.invalidRequest, "No multipart boundary could be found that does not occur in the parts")
  }

  /// `Content-Disposition` (and `Content-Type`) for one part, ending with the blank line.
  static func headers(for part: Part) -> String {
    var disposition = "Content-Disposition: form-data; name=\"\(escape(part.name))\""
    if let fileName = part.fileName {
      if fileName.unicodeScalars.allSatisfy(\.isASCII) {
        disposition += "; filename=\"\(escape(fileName))\""
      } else {
        let fallback = String(fileName.unicodeScalars.map { $0.isASCII ? Character($0) : "_" })
        disposition += "; filename=\"\(escape(fallback))\"; filename*=UTF-8''\(URLQueryEncoder.percentEncode(fileName))"
      }
    }
    var headers = disposition + "\r\n"
    if let mimeType = part.mimeType { headers += "Content-Type: \(mimeType)\r\n" }
    return headers + "\r\n"
  }

  /// Escapes `"`, CR and LF in a quoted name as browsers do (`%22`, `%0D`, `%0A`).
  static func escape(_ value: String) -> String {
    guard value.utf8.contains(where: { $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else { return value }
    var escaped = ""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": escaped += "%22"
      case "\r": escaped += "%0D"
      case "\n": escaped += "%0A"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  static func randomBoundary() -> String {
    let characters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    var generator = SystemRandomNumberGenerator()
    return "courier-" + String((0..<32).map { _ in characters.randomElement(using: &generator) ?? "x" })
  }

  static func isBoundaryCharacter(_ character: Character) -> Bool {
    character.isASCII && (character.isLetter || character.isNumber || "'()+_,-./:=? ".contains(character))
  }
}
