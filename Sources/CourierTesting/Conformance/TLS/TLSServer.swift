import Courier
import Crypto
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import X509

/// A TLS server on 127.0.0.1 presenting a certificate made at test time: it answers every request with `200 ok`,
/// then closes the connection, and counts the requests that reached it through a completed handshake.
package final class TLSServer: Sendable {
  private let channel: any Channel
  private let received: Locked<Int>

  /// The port the server listens on.
  package var port: Int { channel.localAddress?.port ?? 0 }
  /// `https://127.0.0.1:<port>`.
  package var baseURL: URL { URL(string: "https://127.0.0.1:\(port)")! }
  /// `https://127.0.0.1:<port>/hello`.
  package var url: URL { URL(string: "https://127.0.0.1:\(port)/hello")! }
  /// How many request heads the server read.
  package var requestCount: Int { received.withLock { $0 } }

  /// Starts a server presenting `issued` on a free port of 127.0.0.1.
  package init(_ issued: TestAuthority.Issued) async throws {
    let tls = TLSConfiguration.makeServerConfiguration(
      certificateChain: [
        .certificate(
          try NIOSSLCertificate(bytes: Array(issued.certificate.serializeAsPEM().pemString.utf8), format: .pem))
      ],
      privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(issued.key.pemRepresentation.utf8), format: .pem)))
    let context = try NIOSSLContext(configuration: tls)
    let received = Locked(0)
    self.received = received
    channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
          try channel.pipeline.syncOperations.addHandler(Answer(received: received))
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
  }

  /// Closes the listener.
  package func stop() async { try? await channel.close() }

  /// Reads a request head and writes the answer.
  private final class Answer: ChannelInboundHandler, @unchecked Sendable {  // @unchecked: used on its event loop only.
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private var head = ""
    private let received: Locked<Int>

    init(received: Locked<Int>) { self.received = received }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      var buffer = unwrapInboundIn(data)
      head += buffer.readString(length: buffer.readableBytes) ?? ""
      guard head.contains("\r\n\r\n") else { return }
      received.withLock { $0 += 1 }
      let answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
      context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)), promise: nil)
      context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
      context.close(promise: nil)
    }
  }
}
