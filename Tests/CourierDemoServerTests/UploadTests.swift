import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

/// `POST /upload` and `POST|PUT /upload/raw`, driven in memory.
@Suite struct UploadTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func fieldsAndFiles() async throws {
    var form = FormBuilder()
    form.field("title", "Hello, world")
    form.file(
      "doc", filename: "notes.txt", contentType: "text/plain; charset=utf-8", body: Array("line 1\nline 2".utf8))
    form.file("blob", filename: "data.bin", contentType: "application/octet-stream", body: [0, 1, 2, 0xFF])
    form.field("emoji", "Grüße 👋")
    try await TestSupport.withRouter { [form] client in
      let response = try await client.upload(form)
      #expect(response.status == .ok)
      #expect(response.isJSON)
      let report = try response.decode(UploadReport.self)
      #expect(report.totalBytes == Int64(form.body.count))
      #expect(
        report.parts == [
          UploadedPart(
            name: "title", filename: nil, contentType: nil, size: 12,
            sha256: TransferTestSupport.sha256("Hello, world"), value: "Hello, world"
          ),
          UploadedPart(
            name: "doc", filename: "notes.txt", contentType: "text/plain; charset=utf-8", size: 13,
            sha256: TransferTestSupport.sha256("line 1\nline 2"), value: nil
          ),
          UploadedPart(
            name: "blob", filename: "data.bin", contentType: "application/octet-stream", size: 4,
            sha256: TransferTestSupport.sha256([0, 1, 2, 0xFF]), value: nil
          ),
          UploadedPart(
            name: "emoji", filename: nil, contentType: nil, size: 12,
            sha256: TransferTestSupport.sha256("Grüße 👋"), value: "Grüße 👋"
          ),
        ]
      )
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func absentValuesAreNull() async throws {
    var form = FormBuilder()
    form.file("f", filename: "x", contentType: nil, body: [])
    try await TestSupport.withRouter { [form] client in
      let text = try await client.upload(form).text
      #expect(text.contains(#""contentType":null"#))
      #expect(text.contains(#""value":null"#))
      #expect(text.contains(#""filename":"x""#))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func trickyNamesAreDecoded() async throws {
    var form = FormBuilder()
    // Browsers escape ", CR and LF in names and filenames as %22, %0D and %0A (RFC 7578 §2, HTML).
    form.field("say%22hi%22", "1")
    form.field("two%0D%0Alines", "2")
    form.part(disposition: #"form-data; name="back\"slash\\""#, body: Array("3".utf8))
    form.file("f1", filename: "quote%22d %0d%0a name.txt", contentType: "text/plain", body: Array("4".utf8))
    form.part(
      disposition:
        #"form-data; name="f2"; filename="EUR rates.txt"; filename*=UTF-8''%E2%82%AC%20rates%20%F0%9F%93%88.txt"#,
      body: Array("5".utf8)
    )
    form.part(disposition: #"form-data; name="f3"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt"#, body: [])
    form.file("f4", filename: "naïve café.txt", contentType: nil, body: [])
    form.field("100%", "kept")
    try await TestSupport.withRouter { [form] client in
      let report = try await client.upload(form).decode(UploadReport.self)
      #expect(
        report.parts.map(\.name) == ["say\"hi\"", "two\r\nlines", "back\"slash\\", "f1", "f2", "f3", "f4", "100%"])
      #expect(
        report.parts.map(\.filename) == [
          nil, nil, nil, "quote\"d \r\n name.txt", "€ rates 📈.txt", "日本.txt",
          "naïve café.txt", nil,
        ]
      )
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func emptyFileAndEmptyField() async throws {
    var form = FormBuilder()
    form.file("upload", filename: "empty.bin", contentType: "application/octet-stream", body: [])
    form.field("blank", "")
    try await TestSupport.withRouter { [form] client in
      let parts = try await client.upload(form).decode(UploadReport.self).parts
      let emptyDigest = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
      #expect(
        parts[0]
          == UploadedPart(
            name: "upload", filename: "empty.bin", contentType: "application/octet-stream", size: 0,
            sha256: emptyDigest, value: nil
          ))
      #expect(
        parts[1]
          == UploadedPart(
            name: "blank", filename: nil, contentType: nil, size: 0, sha256: emptyDigest, value: ""
          ))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func hundredPartsKeepTheirOrder() async throws {
    var form = FormBuilder()
    for index in 0..<100 {
      if index.isMultiple(of: 2) {
        form.field("field\(index)", "value \(index)")
      } else {
        form.file(
          "file\(index)", filename: "f\(index).bin", contentType: nil, body: TransferTestSupport.pattern(index * 10))
      }
    }
    try await TestSupport.withRouter { [form] client in
      let parts = try await client.upload(form).decode(UploadReport.self).parts
      #expect(parts.count == 100)
      for (index, part) in parts.enumerated() {
        if index.isMultiple(of: 2) {
          #expect(part.name == "field\(index)" && part.value == "value \(index)" && part.filename == nil)
        } else {
          #expect(part.name == "file\(index)" && part.filename == "f\(index).bin")
          #expect(part.size == Int64(index * 10))
          #expect(part.sha256 == TransferTestSupport.sha256(TransferTestSupport.pattern(index * 10)))
        }
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func largePartInMemoryRouter() async throws {
    var form = FormBuilder()
    form.file(
      "big", filename: "big.bin", contentType: "application/octet-stream", body: TransferTestSupport.pattern(3_000_000))
    try await TestSupport.withRouter { [form] client in
      let part = try await client.upload(form).decode(UploadReport.self).parts[0]
      #expect(part.size == 3_000_000)
      #expect(part.sha256 == (await DownloadDigests.shared.digest(length: 3_000_000)))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func emptyFormPreambleAndEpilogue() async throws {
    try await TestSupport.withRouter { client in
      let empty = try await client.upload(Array("--b--\r\n".utf8), contentType: "multipart/form-data; boundary=b")
      #expect(try empty.decode(UploadReport.self) == UploadReport(parts: [], totalBytes: 7))
      var form = FormBuilder(boundary: "b")
      form.field("a", "1")
      let body = Array("preamble\r\n".utf8) + form.body + Array("epilogue".utf8)
      let wrapped = try await client.upload(body, contentType: "multipart/form-data; boundary=\"b\"")
      #expect(try wrapped.decode(UploadReport.self).parts.map(\.value) == ["1"])
    }
  }

  /// Bodies that are not well-formed forms, for boundary `b`.
  static let malformedBodies: [(String, String)] = [
    ("truncated body", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello"),
    ("truncated headers", "--b\r\nContent-Disposition: form-da"),
    ("header without colon", "--b\r\nContent-Disposition form-data\r\n\r\nx\r\n--b--"),
    ("space in header name", "--b\r\nContent Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b--"),
    ("no Content-Disposition", "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--"),
    ("no headers", "--b\r\n\r\nx\r\n--b--"),
    ("not form-data", "--b\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nx\r\n--b--"),
    ("no name", "--b\r\nContent-Disposition: form-data; filename=\"f\"\r\n\r\nx\r\n--b--"),
    (
      "two dispositions",
      "--b\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\nx\r\n--b--"
    ),
    ("unterminated quote", "--b\r\nContent-Disposition: form-data; name=\"a\r\n\r\nx\r\n--b--"),
    ("bad filename*", "--b\r\nContent-Disposition: form-data; name=\"a\"; filename*=UTF-8''%FF\r\n\r\nx\r\n--b--"),
    ("garbage after delimiter", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b junk\r\n"),
    ("wrong boundary", "--other\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--other--"),
    ("not multipart at all", "name=value&x=y"),
    ("empty body", ""),
  ]

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: malformedBodies)
  func malformedBodiesAre400(label: String, body: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.upload(Array(body.utf8), contentType: "multipart/form-data; boundary=b")
      #expect(response.status == .badRequest, "\(label)")
      #expect(response.isJSON)
      let error = try response.errorBody()
      #expect(error.code == "invalid_multipart", "\(label)")
      #expect(!error.error.isEmpty)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    nil, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "multipart/form-data; boundary=",
    "multipart/form-data; boundary=\(String(repeating: "x", count: 71))", "multipart/mixed; boundary=b",
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func badContentTypesAre400(contentType: String?) async throws {
    var form = FormBuilder(boundary: "b")
    form.field("a", "1")
    try await TestSupport.withRouter { [form] client in
      let response = try await client.upload(form.body, contentType: contentType)
      #expect(response.status == .badRequest)
      #expect(try response.errorBody().code == "invalid_multipart")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func tooManyPartsAre400() async throws {
    var form = FormBuilder()
    for index in 0...MultipartReader.maxParts {
      form.field("f\(index)", "")
    }
    try await TestSupport.withRouter { [form] client in
      let response = try await client.upload(form)
      #expect(response.status == .badRequest)
      #expect(try response.errorBody().error.contains("more than 1000 parts"))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [HTTPRequest.Method.post, .put])
  func rawUploadReportsBodyAndFraming(method: HTTPRequest.Method) async throws {
    try await TestSupport.withRouter { client in
      let body = TransferTestSupport.pattern(100_000)
      let response = try await client.execute(
        uri: "/upload/raw",
        method: method,
        headers: [.contentType: "application/x-demo"],
        body: ByteBuffer(bytes: body)
      )
      #expect(response.status == .ok)
      #expect(
        try response.decode(RawUploadReport.self)
          == RawUploadReport(
            size: 100_000,
            sha256: TransferTestSupport.sha256(body),
            contentType: "application/x-demo",
            chunked: false,
            contentLength: 100_000
          )
      )
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func rawUploadWithoutBody() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/upload/raw", method: .post)
      #expect(response.text.contains(#""contentType":null"#))
      let report = try response.decode(RawUploadReport.self)
      #expect(report.size == 0)
      #expect(report.chunked == false)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func uploadMethodsAreChecked() async throws {
    try await TestSupport.withRouter { client in
      let upload = try await client.send("/upload")
      #expect(upload.status == .methodNotAllowed)
      #expect(upload.headers[.allow] == "POST")
      let raw = try await client.send("/upload/raw", method: .delete)
      #expect(raw.headers[.allow] == "POST, PUT")
    }
  }
}
