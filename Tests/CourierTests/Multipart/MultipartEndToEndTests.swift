import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// What the demo API's `/upload` parser saw.
@available(macOS 14, iOS 17, tvOS 17, *)
struct UploadReport: Decodable, Sendable {
  struct Part: Decodable, Sendable {
    var name: String
    var filename: String?
    var contentType: String?
    var size: Int
    var sha256: String
    var value: String?
  }
  var parts: [Part]
  var totalBytes: Int
}

/// Multipart forms through a real parser (the demo API's), over every transport.
@Suite struct MultipartEndToEndTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func trickyNamesUnicodeFileNamesAndEmptyFilesRoundTrip(_ kind: TransportKind) async throws {
    let empty = try temporaryFile(Data(), name: "empty.txt")
    defer { removeTemporaryFile(empty) }
    var form = MultipartFormData()
    form.append("plain value", name: "title")
    form.append("quoted", name: "say \"hi\"")
    form.append("two lines", name: "line\r\nbreak")
    form.append(Data("photo-bytes".utf8), name: "photo", fileName: "Ünïcødé 写真.jpg")
    form.append(fileAt: empty, name: "nothing")
    try await withDemoServer(kind) { client, _ in
      let report = try await client.value(Endpoint<UploadReport>.post("/upload").body(.multipart(form)))
      #expect(report.parts.map(\.name) == ["title", "say \"hi\"", "line\r\nbreak", "photo", "nothing"])
      #expect(report.parts[0].value == "plain value")
      #expect(report.parts[3].filename == "Ünïcødé 写真.jpg")
      #expect(report.parts[3].contentType == "image/jpeg")
      #expect(report.parts[3].size == 11)
      #expect(report.parts[4].filename == "empty.txt")
      #expect(report.parts[4].size == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func manyPartsAndALargeFileArriveWhole(_ kind: TransportKind) async throws {
    let size = 20 * 1024 * 1024
    let file = try temporaryFile(patternData(count: size, offset: 7), name: "video.mp4")
    defer { removeTemporaryFile(file) }
    var form = MultipartFormData()
    for index in 0..<100 { form.append("value \(index)", name: "field\(index)") }
    form.append(fileAt: file, name: "video")
    try await withDemoServer(kind) { client, _ in
      let report = try await client.value(Endpoint<UploadReport>.post("/upload").body(.multipart(form)).timeout(600))
      #expect(report.parts.count == 101)
      #expect(report.parts[99].value == "value 99")
      let video = try #require(report.parts.last)
      #expect(video.size == size)
      #expect(video.contentType == "video/mp4")
      let expected = try await client.value(Endpoint<DownloadDigest>.get("/download/sha256/\(size)"))
      #expect(video.sha256 == expected.sha256, "the server's generator uses the same byte pattern")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func codableFormsWithAttachmentsRoundTrip(_ kind: TransportKind) async throws {
    struct Post: Encodable, Sendable {
      var title = "Holiday"
      var draft = false
      var tags = ["sea", "sun"]
      var cover: MultipartFile
    }
    let post = Post(cover: MultipartFile(data: Data("gif89a".utf8), fileName: "cover.gif"))
    try await withDemoServer(kind) { client, _ in
      let report = try await client.value(Endpoint<UploadReport>.post("/upload").body(multipart: post))
      #expect(report.parts.map(\.name) == ["title", "draft", "tags[]", "tags[]", "cover"])
      #expect(report.parts.map(\.value) == ["Holiday", "false", "sea", "sun", nil], "files carry no value")
      #expect(report.parts[4].size == 6)
      #expect(report.parts[4].filename == "cover.gif")
      #expect(report.parts[4].contentType == "image/gif")
    }
  }
}
