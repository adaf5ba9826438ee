import Foundation
import HTTPTypes

/// How ``APIClient/download(_:to:options:)`` downloads a file.
public struct DownloadOptions: Sendable, Hashable {
  /// Whether to keep a partial file when a download fails and continue it next time with `Range` and `If-Range`
  /// (default `true`). The partial file is the destination's path plus `.part`, with its validator in `.part.json`.
  public var resumes = true
  /// Attempts within one call: when the connection drops mid-body, the download continues from the bytes already
  /// written (default 3 in total).
  public var maxAttempts = 3
  /// The expected SHA-256 of the whole file, as hexadecimal; a mismatch throws
  /// ``CourierError/Kind-swift.struct/integrity`` and removes the partial file.
  public var sha256: String?
  /// Whether an existing file at the destination is replaced (default `true`); otherwise the download fails before
  /// sending anything.
  public var replacesExistingFile = true

  /// Default options: resumable, 3 attempts, no checksum, replacing an existing file.
  public init(resumes: Bool = true, maxAttempts: Int = 3, sha256: String? = nil, replacesExistingFile: Bool = true) {
    self.resumes = resumes
    self.maxAttempts = maxAttempts
    self.sha256 = sha256
    self.replacesExistingFile = replacesExistingFile
  }
}

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
  /// The file's SHA-256 as lowercase hexadecimal, when ``DownloadOptions/sha256`` asked for a check.
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
