import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// Splits an encoded multipart body into (headers, content) pairs, checking the framing on the way.
func parseMultipart(_ body: Data, boundary: String) throws -> [(headers: String, content: Data)] {
  let delimiter = Data("--\(boundary)".utf8)
  var parts: [(String, Data)] = []
  var cursor = body.startIndex
  guard body.starts(with: delimiter) else { throw MultipartTestError("body does not start with the boundary") }
  while let range = body.range(of: delimiter, in: cursor..<body.endIndex) {
    let afterDelimiter = range.upperBound
    if body[afterDelimiter...].starts(with: Data("--\r\n".utf8)) {
      guard afterDelimiter + 4 == body.endIndex else { throw MultipartTestError("bytes after the closing boundary") }
      return parts
    }
    guard body[afterDelimiter...].starts(with: Data("\r\n".utf8)) else {
      throw MultipartTestError("no CRLF after boundary")
    }
    let partStart = afterDelimiter + 2
    guard let next = body.range(of: Data("\r\n".utf8) + delimiter, in: partStart..<body.endIndex) else {
      throw MultipartTestError("unterminated part")
    }
    let part = body[partStart..<next.lowerBound]
    guard let split = part.range(of: Data("\r\n\r\n".utf8)) else { throw MultipartTestError("no blank line") }
    parts.append(
      (String(decoding: part[part.startIndex..<split.lowerBound], as: UTF8.self), Data(part[split.upperBound...])))
    cursor = next.lowerBound + 2
  }
  throw MultipartTestError("no closing boundary")
}

struct MultipartTestError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

@Suite struct MultipartFormDataTests {
  @Test func framingHeadersAndLengthFollowRFC7578() async throws {
    let file = try temporaryFile(Data(repeating: 0xAB, count: 300_000), name: "photo.JPG")
    defer { removeTemporaryFile(file) }
    var form = MultipartFormData(boundary: "b0undary")
    form.append("Summer ☀️", name: "album")
    form.append(Data([1, 2, 3]), name: "raw")
    form.append(fileAt: file, name: "photo")
    form.append(Data("x,y".utf8), name: "table", fileName: "t.csv")
    let (body, contentType) = try form.encoded()
    #expect(contentType == "multipart/form-data; boundary=b0undary")
    let bytes = try await body.collect()
    #expect(body.length == Int64(bytes.count), "Content-Length is computed up front")
    let parts = try parseMultipart(bytes, boundary: "b0undary")
    #expect(parts.count == 4)
    #expect(parts[0].headers == "Content-Disposition: form-data; name=\"album\"")
    #expect(String(decoding: parts[0].content, as: UTF8.self) == "Summer ☀️")
    #expect(
      parts[1].headers == "Content-Disposition: form-data; name=\"raw\"\r\nContent-Type: application/octet-stream")
    #expect(
      parts[2].headers
        == "Content-Disposition: form-data; name=\"photo\"; filename=\"photo.JPG\"\r\nContent-Type: image/jpeg")
    #expect(parts[2].content == Data(repeating: 0xAB, count: 300_000))
    #expect(parts[3].headers.hasSuffix("filename=\"t.csv\"\r\nContent-Type: text/csv"))
  }

  @Test func quotesAndLineBreaksInNamesAreEscapedAndUnicodeFileNamesUseFilenameStar() throws {
    var part = MultipartFormData.Part(
      name: "a\"b\r\nc", fileName: "résumé \"final\".pdf", mimeType: "application/pdf", content: .data(Data()))
    let headers = MultipartFormData.headers(for: part)
    #expect(
      headers.hasPrefix(
        "Content-Disposition: form-data; name=\"a%22b%0D%0Ac\"; filename=\"r_sum_ %22final%22.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf\r\n"
      ))
    #expect(!headers.dropLast(4).contains("\r\n\r\n"), "no header injection")
    part.fileName = "plain.txt"
    #expect(MultipartFormData.headers(for: part).contains("filename=\"plain.txt\"\r\n"))
  }

  @Test func aBoundaryFoundInsideAPartIsReplaced() async throws {
    var form = MultipartFormData(boundary: "clash")
    form.append("before --clash after", name: "text")
    let (body, contentType) = try form.encoded()
    let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
    #expect(boundary != "clash")
    let parts = try parseMultipart(try await body.collect(), boundary: boundary)
    #expect(String(decoding: parts[0].content, as: UTF8.self) == "before --clash after")
  }

  @Test func randomBoundariesAreLongAndDistinct() {
    let boundaries = Set((0..<100).map { _ in MultipartFormData().boundary })
    #expect(boundaries.count == 100)
    #expect(boundaries.allSatisfy { $0.count >= 40 && $0.count <= 70 })
  }

  @Test func invalidBoundaryAndMIMETypeAreTypedErrors() {
    #expect(throws: CourierError.self) { try MultipartFormData(boundary: "").encoded() }
    #expect(throws: CourierError.self) { try MultipartFormData(boundary: String(repeating: "a", count: 71)).encoded() }
    var form = MultipartFormData()
    form.append(Data(), name: "f", fileName: "a.bin", mimeType: "text/plain\r\nX-Evil: 1")
    let error = #expect(throws: CourierError.self) { try form.encoded() }
    #expect(error?.kind == .invalidRequest)
  }

  @Test func aMissingFileFailsBeforeAnythingIsSent() async throws {
    let transport = RecordingTransport()
    let client = APIClient(configuration: .init(baseURL: URL(string: "https://x.test"), transport: transport))
    var form = MultipartFormData()
    form.append(fileAt: URL(fileURLWithPath: "/nonexistent/courier/\(UUID().uuidString).mov"), name: "video")
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.post("/upload").body(.multipart(form)))
    }
    #expect(error?.kind == .invalidRequest)
    #expect(error?.detail.contains("does not exist") == true)
    #expect(transport.count == 0)
  }

  @Test func emptyFormsAndEmptyFilesEncode() async throws {
    let empty = try temporaryFile(Data(), name: "empty.txt")
    defer { removeTemporaryFile(empty) }
    var form = MultipartFormData(boundary: "e")
    form.append(fileAt: empty, name: "nothing")
    let (body, _) = try form.encoded()
    let parts = try parseMultipart(try await body.collect(), boundary: "e")
    #expect(parts.count == 1)
    #expect(parts[0].content.isEmpty)
    let (none, _) = try MultipartFormData(boundary: "n").encoded()
    #expect(try await none.collect() == Data("--n--\r\n".utf8))
  }

  @Test func bodiesReplayForRetries() async throws {
    let file = try temporaryFile(Data("abc".utf8))
    defer { removeTemporaryFile(file) }
    var form = MultipartFormData(boundary: "r")
    form.append(fileAt: file, name: "f")
    let (body, _) = try form.encoded()
    #expect(body.isRepeatable)
    #expect(try await body.collect() == (try await body.collect()))
  }
}

@Suite struct MultipartEncodingTests {
  struct Profile: Encodable, Sendable {
    var name = "Zoë"
    var age = 41
    var ratio = 0.5
    var active = true
    var nickname: String? = nil
    var tags = ["a", "b"]
    var address = Address()
    var avatar: MultipartFile
    var blob = Data([0xFF, 0x00])
    struct Address: Encodable, Sendable { var city = "Lyon" }
  }

  @Test func everyKindOfPropertyBecomesAPart() async throws {
    let photo = try temporaryFile(Data("png-bytes".utf8), name: "me.png")
    defer { removeTemporaryFile(photo) }
    let form = try MultipartFormData(encoding: Profile(avatar: MultipartFile(fileURL: photo)))
    let (body, contentType) = try form.encoded()
    let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
    let parts = try parseMultipart(try await body.collect(), boundary: boundary)
    let names = parts.map { $0.headers.components(separatedBy: "name=\"")[1].components(separatedBy: "\"")[0] }
    #expect(names == ["name", "age", "ratio", "active", "tags[]", "tags[]", "address[city]", "avatar", "blob"])
    let texts = parts.prefix(7).map { String(decoding: $0.content, as: UTF8.self) }
    #expect(texts == ["Zoë", "41", "0.5", "true", "a", "b", "Lyon"])
    #expect(parts[7].headers.contains("filename=\"me.png\"\r\nContent-Type: image/png"))
    #expect(parts[7].content == Data("png-bytes".utf8))
    #expect(parts[8].content == Data([0xFF, 0x00]))
  }

  @Test func dataInAQueryIsATypedErrorNamingTheKey() {
    struct Upload: Encodable { var file: Data }
    let error = #expect(throws: EncodingError.self) { try URLQueryEncoder().encode(Upload(file: Data([1]))) }
    guard case .invalidValue(_, let context) = error else { return }
    #expect(context.codingPath.map(\.stringValue) == ["file"])
    #expect(context.debugDescription.contains("multipart"))
  }

  @Test func arraysOfAttachmentsAndIndexedNames() async throws {
    struct Album: Encodable, Sendable { var photos: [MultipartFile] }
    let album = Album(photos: [
      MultipartFile(data: Data("1".utf8), fileName: "1.gif"),
      MultipartFile(data: Data("2".utf8), fileName: "2.gif"),
    ])
    let indexed = try MultipartFormData(encoding: album, options: URLQueryEncoder(arrayEncoding: .indexed))
    let (body, contentType) = try indexed.encoded()
    let parts = try parseMultipart(
      try await body.collect(), boundary: String(contentType.split(separator: "=").last ?? ""))
    #expect(
      parts.map { $0.headers.contains("name=\"photos[0]\"") || $0.headers.contains("name=\"photos[1]\"") } == [
        true, true,
      ])
    #expect(throws: EncodingError.self) {
      try MultipartFormData(encoding: album, options: URLQueryEncoder(arrayEncoding: .commaSeparated))
    }
  }
}

@Suite struct FileBodyTests {
  @Test func fileBodiesStreamInChunksWithTheirLength() async throws {
    let file = try temporaryFile(patternData(count: 1_000_000, step: 1))
    defer { removeTemporaryFile(file) }
    let body = try BodyStream.file(at: file, chunkSize: 64 * 1024)
    #expect(body.length == 1_000_000)
    var chunks = 0
    var total = 0
    for try await chunk in body {
      chunks += 1
      total += chunk.count
      #expect(chunk.count <= 64 * 1024)
    }
    #expect(total == 1_000_000)
    #expect(chunks == 16)
  }

  @Test func missingDirectoryAndChangedFilesAreTypedErrors() async throws {
    #expect(throws: CourierError.self) {
      try BodyStream.file(at: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)"))
    }
    #expect(throws: CourierError.self) { try BodyStream.file(at: FileManager.default.temporaryDirectory) }
    let file = try temporaryFile(Data(count: 100))
    defer { removeTemporaryFile(file) }
    let body = try BodyStream.file(at: file)
    try Data(count: 50).write(to: file)
    let error = await #expect(throws: CourierError.self) { try await body.collect() }
    #expect(error?.detail.contains("changed size") == true)
  }
}

/// Counts what reaches it and answers 200.
final class RecordingTransport: HTTPTransport {
  private let calls = Locked(0)
  var count: Int { calls.withLock { $0 } }
  func send(
    _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    calls.withLock { $0 += 1 }
    return (HTTPResponse(status: .ok), BodyStream())
  }
}
