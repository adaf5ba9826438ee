#if canImport(Hummingbird)
import Hummingbird
import NIOCore
import ServiceLifecycle

/// Writes a `/download` body: a range of ``DownloadPattern`` in chunks of up to 64 KiB, optionally throttled, and
/// optionally cut off by a connection reset after some bytes.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DownloadBody: Sendable {
  /// The bytes of the pattern to send; `nil` for an empty body.
  var range: ClosedRange<Int64>?
  /// The most bytes per second to send, or `nil` for as fast as the client reads.
  var rate: Int?
  /// When set, only this many bytes are sent, then the connection is reset.
  var dropAfter: Int64?
  /// The connection, for the reset.
  var channel: any Channel

  /// Bytes in the body (the `Content-Length`).
  var length: Int64 {
    range.map { $0.upperBound - $0.lowerBound + 1 } ?? 0
  }

  /// Bytes per write: whole chunks, or about a tenth of a second's worth when throttled (at least 1 byte), so
  /// progress moves smoothly and no pause between writes is much longer than 100 ms (1 s for rates under 10 B/s).
  var writeSize: Int {
    guard let rate else { return DownloadPattern.chunkSize }
    return min(max(rate / 10, 1), DownloadPattern.chunkSize)
  }

  /// The response body, with its length declared.
  func responseBody() -> ResponseBody {
    ResponseBody(contentLength: Int(length)) { writer in
      try await write(to: &writer)
    }
  }

  /// Writes the chunks, pacing them for ``rate``; then finishes the body or, with ``dropAfter``, resets the
  /// connection and throws ``ConnectionDrop/Dropped``.
  func write(to writer: inout any ResponseBodyWriter) async throws {
    if let range {
      let end = dropAfter.map { range.lowerBound + $0 } ?? range.upperBound + 1
      let clock = ContinuousClock()
      let start = clock.now
      var offset = range.lowerBound
      while offset < end {
        if let rate {
          let due = start + .seconds(offset - range.lowerBound) / rate
          if due > clock.now {
            try await cancelWhenGracefulShutdown {
              try await Task.sleep(until: due, clock: clock)
            }
          }
        }
        let count = Int(min(Int64(writeSize), end - offset))
        try await writer.write(DownloadPattern.chunk(at: offset, count: count))
        offset += Int64(count)
      }
    }
    if dropAfter != nil {
      await ConnectionDrop.reset(channel, after: ConnectionDrop.deliveryWait)
      throw ConnectionDrop.Dropped()
    }
    try await writer.finish(nil)
  }
}
#endif
