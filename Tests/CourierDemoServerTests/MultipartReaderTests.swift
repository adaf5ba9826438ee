import Hummingbird
import Testing

@testable import CourierDemoServer

/// The streaming multipart reader and the header parsing behind it, without a server.
@Suite struct MultipartReaderTests {
  /// A form whose bodies hold near-misses of the delimiter, split at every place a chunk may end.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static var trickyForm: FormBuilder {
    var form = FormBuilder(boundary: "b0und")
    form.field("almost", "x\r\n--b0un\r\n--b0unD\r\r\n-\r\n--\r\n-b0und\n--b0und\r--b0und")
    form.file("crs", filename: "c.bin", contentType: nil, body: Array("\r\r\r\n\r\n-\r".utf8))
    form.field("empty", "")
    form.file(
      "pattern", filename: "p.bin", contentType: "application/octet-stream", body: TransferTestSupport.pattern(5_000))
    form.field("last", "-b0und-\r\n")
    return form
  }

  /// Feeds `bytes` in pieces of `size` and returns the report.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func read(_ bytes: [UInt8], boundary: String, pieceSize size: Int) throws -> UploadReport {
    let reader = MultipartReader(boundary: boundary)
    var start = 0
    while start < bytes.count {
      reader.feed(ByteBuffer(bytes: bytes[start..<min(start + size, bytes.count)]))
      start += size
    }
    return try reader.finish()
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [1, 2, 3, 5, 7, 8, 9, 13, 64, 1_000, 100_000])
  func chunkBoundariesDoNotMatter(pieceSize: Int) throws {
    let form = Self.trickyForm
    let report = try Self.read(form.body, boundary: form.boundary, pieceSize: pieceSize)
    #expect(report.totalBytes == Int64(form.body.count))
    try #require(report.parts.map(\.name) == ["almost", "crs", "empty", "pattern", "last"])
    #expect(report.parts[0].value == "x\r\n--b0un\r\n--b0unD\r\r\n-\r\n--\r\n-b0und\n--b0und\r--b0und")
    #expect(report.parts[1].size == 8)
    #expect(report.parts[1].sha256 == TransferTestSupport.sha256("\r\r\r\n\r\n-\r"))
    #expect(report.parts[2].value == "")
    #expect(report.parts[3].size == 5_000)
    #expect(report.parts[3].sha256 == TransferTestSupport.sha256(TransferTestSupport.pattern(5_000)))
    #expect(report.parts[4].value == "-b0und-\r\n")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [1, 4, 1_000])
  func cutOffAnywhereIsRejected(pieceSize: Int) throws {
    var form = FormBuilder(boundary: "b0und")
    form.field("almost", "x\r\n--b0un\r\n-")
    form.file("crs", filename: "c.bin", contentType: "text/plain", body: Array("\r\r\r\n\r\n-\r".utf8))
    form.field("empty", "")
    let body = form.body
    // Every cut before the closing delimiter's "--" (the parser ends at its first hyphen) must be noticed.
    let lastCut = body.count - "-\r\n".utf8.count
    for length in 0..<lastCut {
      #expect(throws: MultipartFailure.self, "cut at \(length)") {
        _ = try Self.read(Array(body[..<length]), boundary: "b0und", pieceSize: pieceSize)
      }
    }
    #expect(try Self.read(Array(body[..<lastCut]), boundary: "b0und", pieceSize: pieceSize).parts.count == 3)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func preambleAndLongEpilogueAreSkipped() throws {
    var form = FormBuilder(boundary: "xyz")
    form.field("a", "1")
    let body = Array("This is the preamble.\r\n".utf8) + form.body + [UInt8](repeating: 0x41, count: 100_000)
    let report = try Self.read(body, boundary: "xyz", pieceSize: 4_096)
    #expect(report.parts.map(\.value) == ["1"])
    #expect(report.totalBytes == Int64(body.count))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func formWithoutPartsIsEmpty() throws {
    for body in ["--xyz--", "--xyz--\r\n", "\r\n--xyz--\r\n"] {
      #expect(try Self.read(Array(body.utf8), boundary: "xyz", pieceSize: 3).parts.isEmpty)
    }
    #expect(throws: MultipartFailure.self) { try Self.read(Array("--xyz--x".utf8), boundary: "xyz", pieceSize: 3) }
    #expect(throws: MultipartFailure.self) { try Self.read([], boundary: "xyz", pieceSize: 3) }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func oversizedHeadersAreRejected() throws {
    var form = FormBuilder(boundary: "xyz")
    form.part(disposition: #"form-data; name="\#(String(repeating: "n", count: 40_000))""#, body: [])
    let error = #expect(throws: MultipartFailure.self) { try Self.read(form.body, boundary: "xyz", pieceSize: 65_536) }
    #expect(error?.message.contains("exceeds 16 KiB") == true)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func valueIsTextUpToOneKiB() throws {
    var form = FormBuilder()
    form.field("kib", String(repeating: "k", count: 1_024))
    form.field("more", String(repeating: "m", count: 1_025))
    form.part(disposition: #"form-data; name="binary""#, body: [0xFF, 0xFE])
    form.file("file", filename: "f.txt", contentType: "text/plain", body: Array("text".utf8))
    let report = try Self.read(form.body, boundary: form.boundary, pieceSize: 100)
    #expect(report.parts.map(\.value) == [String(repeating: "k", count: 1_024), nil, nil, nil])
    #expect(report.parts.map(\.size) == [1_024, 1_025, 2, 4])
  }

  // MARK: Header parsing

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    (#"form-data; name="a""#, "a", nil),
    (#"form-data; name=token; filename=file.txt"#, "token", "file.txt"),
    (#"FORM-DATA; NAME="upper"; FileName="F.TXT""#, "upper", "F.TXT"),
    (#"form-data; name="q%22uote"; filename="a%0D%0Ab%0d%0a.txt""#, "q\"uote", "a\r\nb\r\n.txt"),
    (#"form-data; name="back\"slash\\"; filename="c:\\dir\\f.txt""#, "back\"slash\\", #"c:\dir\f.txt"#),
    (#"form-data; name="semi;colon"; filename="100%.txt""#, "semi;colon", "100%.txt"),
    (#"form-data; name="u"; filename="résumé.pdf""#, "u", "résumé.pdf"),
    (#"form-data; name="e"; filename="fallback.txt"; filename*=UTF-8''%E2%82%AC%20rates.txt"#, "e", "€ rates.txt"),
    (#"form-data; name="e"; filename*=utf-8'en'%F0%9F%93%84.pdf; filename="x.pdf""#, "e", "📄.pdf"),
    (#"form-data; name="l"; filename*=ISO-8859-1''caf%E9.txt"#, "l", "café.txt"),
    (#"form-data; name="empty"; filename="""#, "empty", ""),
    (#"form-data ; name = "spaced" ;"#, "spaced", nil),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func dispositionDecoding(value: String, name: String, filename: String?) throws {
    let disposition = try FormDataDisposition(fieldValue: value)
    #expect(disposition == FormDataDisposition(name: name, filename: filename))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    "attachment; name=\"a\"", "form-data", "form-data; filename=\"f\"", "form-data; name=\"a\"; name=\"b\"",
    "form-data; name=\"unterminated", "form-data; name", "form-data; name=\"a\"x", "form-data; =\"a\"",
    "form-data; name=\"a\"; filename*=UTF-8''%E2%82", "form-data; name=\"a\"; filename*=latin9''x",
    "form-data; name=\"a\"; filename*=no-quotes", "form-data; name=\"a\"; filename*=UTF-8''%G0", "",
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func badDispositionsThrow(value: String) {
    #expect(throws: MultipartFailure.self) { try FormDataDisposition(fieldValue: value) }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    ("multipart/form-data; boundary=abc", "abc"),
    ("Multipart/Form-Data; BOUNDARY=\"a b:c\"", "a b:c"),
    (
      "multipart/form-data; charset=utf-8; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
      "----WebKitFormBoundary7MA4YWxkTrZu0gW"
    ),
    ("multipart/form-data;boundary==_Part_1/2?", "=_Part_1/2?"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func boundaries(contentType: String, boundary: String) throws {
    #expect(try MultipartBoundary.parse(contentType: contentType) == boundary)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    nil, "text/plain; boundary=abc", "multipart/mixed; boundary=abc", "multipart/form-data",
    "multipart/form-data; boundary=", "multipart/form-data; boundary=\"\"", "multipart/form-data; boundary=\"a \"",
    "multipart/form-data; boundary=a; boundary=b", "multipart/form-data; boundary=\(String(repeating: "x", count: 71))",
    "multipart/form-data; boundary=\"a<b\"", "multipart/form-data; boundary=\"ä\"",
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func badBoundariesThrow(contentType: String?) {
    #expect(throws: MultipartFailure.self) { try MultipartBoundary.parse(contentType: contentType) }
  }
}
