import Crypto
import Foundation
import HTTPTypes

extension APIClient {
  /// Downloads the body of `endpoint` into a file at `destination`, streamed to disk a chunk at a time.
  ///
  /// The bytes go to `destination` plus `.part` and are moved into place atomically when the whole body has
  /// arrived (and matched `sha256`, when given). When the connection drops mid-body the download continues from the
  /// bytes already written with `Range` and `If-Range` (on every transport; no platform resume data); after the last
  /// attempt the partial file stays for the next call to resume. A server that ignores the range, or whose file
  /// changed (`If-Range` no longer matches), sends the whole file again and the download starts over. Progress from
  /// ``Endpoint/onDownloadProgress(_:)`` counts the whole file, starting at the resumed offset.
  ///
  /// ```swift
  /// let result = try await client.download(.get("/files/video.mp4"), to: videoURL, sha256: expectedDigest)
  /// print(result.bytes, result.resumedFrom)
  /// ```
  ///
  /// - Parameters:
  ///   - endpoint: What to download.
  ///   - destination: Where the file goes.
  ///   - sha256: The expected SHA-256 of the whole file, as hexadecimal (either case); a mismatch throws
  ///     ``CourierError/Kind-swift.struct/integrity`` and removes the partial file. `nil` (the default) checks nothing.
  ///   - resumes: Whether to keep a partial file when a download fails and continue it next time with `Range` and
  ///     `If-Range` (default `true`). The partial file is the destination's path plus `.part`, with its validator in
  ///     `.part.json`.
  ///   - maxAttempts: Attempts within one call: when the connection drops mid-body, the download continues from the
  ///     bytes already written (default 3 in total).
  ///   - replacesExistingFile: Whether an existing file at `destination` is replaced (default `true`); otherwise the
  ///     download fails before sending anything.
  /// - Throws: ``CourierError``: a transport or status error, ``CourierError/Kind-swift.struct/integrity`` for a
  ///   checksum or length mismatch, ``CourierError/Kind-swift.struct/fileSystem`` when a file cannot be written or
  ///   moved (checked before anything is sent where possible).
  @discardableResult
  public func download<Value>(
    _ endpoint: Endpoint<Value>,
    to destination: URL,
    sha256: String? = nil,
    resumes: Bool = true,
    maxAttempts: Int = 3,
    replacesExistingFile: Bool = true
  ) async throws -> DownloadResult {
    let request = try httpRequest(for: endpoint)
    let files = try DownloadFiles(
      destination: destination, url: "\(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "/")",
      replacesExistingFile: replacesExistingFile)
    let reporter = endpoint.downloadProgress.map { ProgressReporter(sequence: false, callback: $0) }
    var resumedFrom: Int64?
    var resumptions: [Int64] = []
    var attempts = 0
    var lastResponse: HTTPResponse
    defer { reporter?.finish(complete: false) }
    while true {
      attempts += 1
      if !resumes { try files.discardPartial() }
      let partial = files.resumablePartial()
      let offset = partial?.bytes ?? 0
      var attempt = endpoint
      if let partial, offset > 0 {
        attempt = attempt.header("Range", "bytes=\(offset)-").header("If-Range", partial.state.validator)
      }
      do {
        let stream = try await openStream(attempt.expectAnyStatus(), progress: nil)
        lastResponse = stream.response
        guard
          let start = try await startingPoint(
            of: stream, offset: offset, total: partial?.state.total, endpoint: endpoint)
        else {
          try files.discardPartial()
          if attempts < maxAttempts { continue }
          throw CourierError(
            .transport, "The server's Content-Range did not continue the partial download", request: stream.request,
            response: stream.response)
        }
        if resumedFrom == nil { resumedFrom = start.offset } else { resumptions.append(start.offset) }
        try files.remember(stream.response, total: start.total)
        reporter?.start(offset: start.offset, total: start.total)
        if start.total != start.offset {
          try await files.write(stream.body, from: start.offset, progress: reporter)
        }
        break
      } catch let error as CourierError where Self.resumable(error) && attempts < maxAttempts {
        continue
      } catch let error as CourierError {
        if !resumes || !files.hasValidator { files.remove() }
        throw error
      }
    }
    let size = try files.finish(expectedTotal: files.total)
    var digest: String?
    if let expected = sha256 {
      let actual = try files.sha256()
      guard actual == expected.lowercased() else {
        files.remove()
        throw CourierError(
          .integrity, "The download's SHA-256 is \(actual), not the expected \(expected.lowercased())",
          request: request, response: lastResponse)
      }
      digest = actual
    }
    try files.moveIntoPlace()
    reporter?.finish(complete: true)
    return DownloadResult(
      file: destination, bytes: size, resumedFrom: resumedFrom ?? 0, resumptions: resumptions, attempts: attempts,
      sha256: digest, response: lastResponse)
  }

  /// Failures worth another attempt from the bytes already written.
  static func resumable(_ error: CourierError) -> Bool {
    [.connectionLost, .timeout, .transport].contains(error.kind)
  }

  /// Where the body of `stream` starts in the file and the file's whole length; `nil` when a 206 does not continue
  /// the partial file. Statuses other than 200, 206 and a 416 for a finished partial file throw.
  func startingPoint<Value>(
    of stream: StreamedResponse,
    offset: Int64,
    total: Int64?,
    endpoint: Endpoint<Value>
  ) async throws -> (offset: Int64, total: Int64?)? {
    let range = stream.response.headerFields[.contentRange].flatMap(ContentRange.init)
    switch stream.response.status.code {
    case 206:
      guard let range, range.first == offset else { return nil }
      return (offset, range.total)
    case 416 where offset > 0 && range?.total == offset:
      return (offset, offset)
    case 200...299:
      return (0, stream.body.length)
    default:
      let data = (try? await stream.body.collect(upTo: 1 << 20)) ?? Data()
      throw engine.unacceptable(
        endpoint, request: stream.request, response: stream.response, data: data)
    }
  }
}

/// A `Content-Range` value: `bytes 100-199/1000`, `bytes 100-199/*` or `bytes */1000`.
struct ContentRange: Hashable {
  var first: Int64?
  var last: Int64?
  var total: Int64?

  init?(_ value: String) {
    let parts = value.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
    let rangeAndTotal = parts[1].split(separator: "/", omittingEmptySubsequences: false)
    guard rangeAndTotal.count == 2 else { return nil }
    if rangeAndTotal[1] != "*" {
      guard let total = Int64(rangeAndTotal[1]), total >= 0 else { return nil }
      self.total = total
    }
    if rangeAndTotal[0] != "*" {
      let bounds = rangeAndTotal[0].split(separator: "-", omittingEmptySubsequences: false)
      guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else {
        return nil
      }
      if let total, last >= total { return nil }
      self.first = first
      self.last = last
    } else if total == nil {
      return nil
    }
  }
}
