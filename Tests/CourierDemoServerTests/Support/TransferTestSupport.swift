import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting

@testable import CourierDemoServer

/// Builds `multipart/form-data` bodies byte by byte, so tests control every header exactly.
@available(macOS 14, iOS 17, tvOS 17, *)
struct FormBuilder: Sendable {
  /// The boundary.
  var boundary = "courier-test-boundary"
  /// The body so far (without the closing delimiter).
  private(set) var bytes: [UInt8] = []

  /// `multipart/form-data; boundary=<boundary>`.
  var contentType: String {
    "multipart/form-data; boundary=\(boundary)"
  }

  /// The whole body, with the closing delimiter.
  var body: [UInt8] {
    bytes + Array("--\(boundary)--\r\n".utf8)
  }

  /// A plain field, its name quoted as given.
  mutating func field(_ name: String, _ value: String) {
    part(disposition: #"form-data; name="\#(name)""#, body: Array(value.utf8))
  }

  /// A file part with `filename` quoted as given.
  mutating func file(_ name: String, filename: String, contentType: String?, body: [UInt8]) {
    part(disposition: #"form-data; name="\#(name)"; filename="\#(filename)""#, contentType: contentType, body: body)
  }

  /// A part with exactly this `Content-Disposition` value and body.
  mutating func part(disposition: String, contentType: String? = nil, body: [UInt8]) {
    var head = "--\(boundary)\r\nContent-Disposition: \(disposition)\r\n"
    if let contentType {
      head += "Content-Type: \(contentType)\r\n"
    }
    bytes += Array((head + "\r\n").utf8) + body + Array("\r\n".utf8)
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension TestClientProtocol {
  /// `POST /upload` with `body` and `contentType`.
  func upload(_ body: [UInt8], contentType: String?) async throws -> TestResponse {
    var headers: HTTPFields = [:]
    if let contentType {
      headers[.contentType] = contentType
    }
    return try await execute(uri: "/upload", method: .post, headers: headers, body: ByteBuffer(bytes: body))
  }

  /// `POST /upload` with the form.
  func upload(_ form: FormBuilder) async throws -> TestResponse {
    try await upload(form.body, contentType: form.contentType)
  }
}

/// Helpers for the upload and download tests.
@available(macOS 14, iOS 17, tvOS 17, *)
enum TransferTestSupport {
  /// One period of ``DownloadPattern`` (it repeats every 256 bytes).
  static let period: [UInt8] = (0..<256).map { DownloadPattern.byte(at: Int64($0)) }

  /// `count` bytes of ``DownloadPattern`` from `offset` on, copied a period at a time (quick even in debug builds).
  static func pattern(_ count: Int, from offset: Int64 = 0) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count + 256)
    bytes.append(contentsOf: period[Int(offset & 0xFF)...])
    while bytes.count < count {
      bytes.append(contentsOf: period)
    }
    return Array(bytes.prefix(count))
  }

  /// SHA-256 of `bytes` as lowercase hex.
  static func sha256(_ bytes: some Sequence<UInt8>) -> String {
    SHA256Digest.hex(of: bytes)
  }

  /// SHA-256 of `text`'s UTF-8 bytes.
  static func sha256(_ text: String) -> String {
    SHA256Digest.hex(of: Array(text.utf8))
  }

  /// The process's resident set size in bytes (`VmRSS` in `/proc/self/status`), or `nil` off Linux.
  static func residentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first
      return kilobytes.map { $0 * 1024 }
    }
    return nil
  }
}
