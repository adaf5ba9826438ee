import Foundation
import HTTPTypes

/// A finished download.
public struct DownloadResult: Sendable {
  /// Where the file is now.
  public let file: URL
  /// The file's length in bytes.
  public let bytes: Int64
  /// Where this call's first response started in the file: the bytes kept from an earlier, interrupted download
  /// (0 when the download started afresh, also when the server sent the whole file again).
  public let resumedFrom: Int64
  /// Where each later attempt of this call continued after the connection dropped (the bytes already written).
  public let resumptions: [Int64]
  /// How many requests this call sent (more than 1 when a dropped connection was resumed).
  public let attempts: Int
  /// The file's SHA-256 as lowercase hexadecimal, when the `sha256` argument of
  /// ``APIClient/download(_:to:sha256:resumes:maxAttempts:replacesExistingFile:)`` asked for a check.
  public let sha256: String?
  /// The last response head.
  public let response: HTTPResponse
}

/// What is remembered beside a partial download so it can be resumed: the URL and the validator it came with.
struct PartialDownload: Codable, Hashable {
  var url: String
  /// A strong `ETag`, or the `Last-Modified` date, for `If-Range`.
  var validator: String
  /// The whole file's length, when the server said.
  var total: Int64?
}
