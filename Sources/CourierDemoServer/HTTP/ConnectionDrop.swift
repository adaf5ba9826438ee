#if canImport(Hummingbird)
import Foundation
import Hummingbird
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Ends a request by dropping its connection instead of answering (`/flaky/{key}?mode=reset`).
@available(macOS 14, iOS 17, tvOS 17, *)
enum ConnectionDrop {
  /// Thrown by the body of the response ``response(dropping:context:)`` returns, so nothing is ever written.
  struct Dropped: Error, Sendable {}

  /// How long the drop waits for the rest of the request body before resetting anyway.
  static let bodyWait: Duration = .milliseconds(500)

  /// Reads the request body to its end (waiting at most ``bodyWait``), then resets the connection before any byte
  /// of a response is written.
  ///
  /// With `SO_LINGER` set to 0 the close sends a TCP RST, so the client sees "connection reset by peer" rather
  /// than an HTTP status (URLSession: `URLError.networkConnectionLost`; a plain close would be "Empty reply from
  /// server", which FoundationNetworking reports as `badServerResponse`). The returned response only exists to
  /// satisfy the router: its body throws ``Dropped`` (writing to the closed channel would fail anyway). In-memory
  /// router tests, which have no socket, see ``Dropped`` thrown by the test client.
  static func response(dropping request: Request, context: DemoContext) async -> Response {
    // Reading the body first means the client is done sending and sees the reset while it waits for the
    // response, not a failed send. The wait is bounded because some clients never send the body they announced:
    // FoundationNetworking, when libcurl silently replays a request on a fresh connection, sends the headers of a
    // POST again but not its body.
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        do {
          for try await _ in request.body {}
        } catch {
          // The connection is going away anyway.
        }
      }
      group.addTask {
        try? await Task.sleep(for: bodyWait)
      }
      await group.next()
      group.cancelAll()
    }
    await reset(context.channel)
    return Response(status: .internalServerError, body: ResponseBody { _ in throw Dropped() })
  }

  /// How long a reset in the middle of a response body waits at most for the peer to acknowledge the bytes already
  /// written (on Linux; elsewhere the wait is 100 ms).
  static let deliveryWait: Duration = .seconds(10)

  /// Waits until the bytes already written reached the peer (a reset discards whatever is still queued, however
  /// slowly the client reads), at most `limit`, then resets `channel`.
  static func reset(_ channel: any Channel, after limit: Duration) async {
    await waitForDelivery(channel, limit: limit)
    await reset(channel)
  }

  /// Waits until the peer has acknowledged every byte written to `channel`: on Linux, `TCP_INFO` shows nothing unsent
  /// and nothing unacknowledged in three readings in a row, 10 ms apart (bytes still in the channel's own buffer
  /// reach the socket long before it has drained); at most `limit`. Elsewhere it waits 100 ms.
  static func waitForDelivery(_ channel: any Channel, limit: Duration) async {
    #if os(Linux)
    guard let socket = channel as? any SocketOptionProvider else { return }
    let clock = ContinuousClock()
    let end = clock.now + limit
    var settled = 0
    while settled < 3, clock.now < end {
      let info: KernelTCPInfo
      do {
        info = try await socket.unsafeGetSocketOption(level: SocketOptionLevel(IPPROTO_TCP), name: TCP_INFO).get()
      } catch {
        return
      }
      settled = info.isDrained ? settled + 1 : 0
      try? await Task.sleep(for: .milliseconds(10))
    }
    #else
    try? await Task.sleep(for: .milliseconds(100))
    #endif
  }

  /// Closes `channel` with `SO_LINGER` 0, so the peer gets a TCP RST ("connection reset by peer") instead of a FIN.
  ///
  /// Bytes still queued for sending are discarded. Channels without a socket (in-memory tests) are just closed.
  static func reset(_ channel: any Channel) async {
    if let socket = channel as? any SocketOptionProvider {
      try? await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
    }
    try? await channel.close()
  }
}

#if os(Linux)
/// The start of Linux's `struct tcp_info` (linux/tcp.h; glibc's copy stops before `tcpi_notsent_bytes`), read as
/// 64-bit words: `tcpi_unacked` is the low half of word 3 (byte 24), `tcpi_notsent_bytes` of word 18 (byte 144).
private struct KernelTCPInfo: Sendable {
  var words:
    (
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

  /// Segments sent and not yet acknowledged.
  var unacknowledgedSegments: UInt32 { UInt32(truncatingIfNeeded: words.3) }
  /// Bytes queued and not yet sent.
  var unsentBytes: UInt32 { UInt32(truncatingIfNeeded: words.18) }
  /// Whether everything written was sent and acknowledged.
  var isDrained: Bool { unacknowledgedSegments == 0 && unsentBytes == 0 }
}
#endif
#endif
