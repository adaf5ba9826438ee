import Foundation
import NIOCore
import NIOPosix

/// A listener on 127.0.0.1 that never accepts a connection and keeps its queue of established connections full, so
/// the kernel drops the SYN of every new one: a connection to it is never made, as with a host that silently drops
/// packets.
final class UnacceptingListener: Sendable {
  /// The port it listens on.
  let port: Int
  private let listener: any Channel
  private let fillers: [any Channel]

  private init(port: Int, listener: any Channel, fillers: [any Channel]) {
    self.port = port
    self.listener = listener
    self.fillers = fillers
  }

  /// `http://127.0.0.1:<port>`.
  var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// Starts listening with the smallest queue the kernel allows and fills it with connections nobody accepts.
  static func start() async throws -> UnacceptingListener {
    let group = MultiThreadedEventLoopGroup.singleton
    let listener = try await ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.backlog, value: 0)
      // Without reads the listener never accepts: established connections wait in the kernel's queue.
      .serverChannelOption(ChannelOptions.autoRead, value: false)
      .childChannelInitializer { $0.eventLoop.makeSucceededVoidFuture() }
      .bind(host: "127.0.0.1", port: 0).get()
    guard let port = listener.localAddress?.port else {
      try? await listener.close()
      throw ScriptedServerError.noPort
    }
    // Connect until a connection is no longer made: the queue is full.
    var fillers: [any Channel] = []
    for _ in 0..<16 {
      do {
        let filler = try await ClientBootstrap(group: group).connectTimeout(.milliseconds(250))
          .connect(host: "127.0.0.1", port: port).get()
        fillers.append(filler)
      } catch {
        break
      }
    }
    return UnacceptingListener(port: port, listener: listener, fillers: fillers)
  }

  /// Closes the listener and the connections that filled its queue.
  func stop() async {
    for filler in fillers { try? await filler.close() }
    try? await listener.close()
  }
}
