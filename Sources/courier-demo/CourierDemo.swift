import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierDemoServer
import CourierStyles
import Foundation

/// `courier-demo`: the tour of Courier against the demo API, or the demo API on its own.
@main
struct CourierDemo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "courier-demo",
    abstract: "Starts the Courier demo API on 127.0.0.1 and runs a tour of every feature against it.",
    subcommands: [Tour.self, Serve.self, Fleet.self, OutboxWorker.self],
    defaultSubcommand: Tour.self
  )
}

extension CourierDemo {
  /// Runs the tour (the default).
  struct Tour: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the tour against an in-process demo server.")

    @Option(
      help:
        "The transport to send with: urlsession or ahc (AsyncHTTPClient). Default: \(TransportChoice.platformDefault.rawValue)."
    )
    var transport: TransportChoice = .platformDefault

    func run() async throws {
      guard #available(macOS 14, iOS 17, tvOS 17, *) else { throw DemoServerUnavailable() }
      let server = try await DemoServer().start(host: "127.0.0.1", port: 0)
      print("Courier demo API listening on \(server.baseURL.absoluteString)")
      print("Sending with \(transport.name)\n")
      do {
        try await TourSteps(baseURL: server.baseURL, transport: transport.makeTransport()).run()
      } catch {
        await server.stop()
        print("\nThe tour failed: \(error)")
        throw ExitCode.failure
      }
      await server.stop()
      print("\nTour finished.")
    }
  }

  /// The transports the tour can send with.
  enum TransportChoice: String, ExpressibleByArgument, CaseIterable {
    case urlsession
    case ahc

    /// The faster transport on this platform: AsyncHTTPClient on Linux, URLSession on Apple platforms.
    static var platformDefault: TransportChoice {
      #if canImport(Darwin)
      .urlsession
      #else
      .ahc
      #endif
    }

    var name: String {
      switch self {
      case .urlsession: "URLSessionTransport (URLSession)"
      case .ahc: "AsyncHTTPClientTransport (AsyncHTTPClient)"
      }
    }

    func makeTransport() -> any HTTPTransport {
      switch self {
      case .urlsession: URLSessionTransport()
      case .ahc: AsyncHTTPClientTransport()
      }
    }
  }

  /// Runs only the server.
  struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run only the demo API server.")

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    func run() async throws {
      guard #available(macOS 14, iOS 17, tvOS 17, *) else { throw DemoServerUnavailable() }
      print("Courier demo API on http://\(host):\(port) — Ctrl-C to stop")
      try await DemoServer().run(host: host, port: port)
    }
  }
}

/// The demo server runs on Hummingbird 2, which needs macOS 14, iOS 17 or tvOS 17 on Apple platforms.
struct DemoServerUnavailable: Error, CustomStringConvertible {
  var description: String { "The demo server needs macOS 14, iOS 17 or tvOS 17 (Hummingbird 2), or Linux" }
}
