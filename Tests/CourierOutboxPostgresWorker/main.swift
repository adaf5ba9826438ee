// A delivery worker of a fleet sharing one PostgreSQL outbox: it opens the outbox, delivers until nothing waits,
// prints `drained`, and exits. The fleet tests run several at once, kill one with SIGKILL, and restart PostgreSQL
// under them.
//
//   CourierOutboxPostgresWorker <host> <port> <user> <password> <database> <table> <lease seconds> <base URL> [<n>]
//
// With <n>, the worker kills itself with SIGKILL once it has seen its n-th delivery: a death mid-drain, at a moment
// chosen by the test rather than by a race with the clock.
import Courier
import CourierAsyncHTTPClient
import CourierOutbox
import CourierOutboxPostgres
import Foundation
import Logging
import PostgresNIO

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
let killAfter = arguments.count == 10 ? Int(arguments[9]) : nil
guard arguments.count == 9 || (arguments.count == 10 && killAfter != nil), let port = Int(arguments[2]),
  let lease = Double(arguments[7]), let baseURL = URL(string: arguments[8])
else {
  FileHandle.standardError.write(
    Data(
      ("usage: CourierOutboxPostgresWorker <host> <port> <user> <password> <database> <table> <lease seconds> "
        + "<base URL> [<deliveries before SIGKILL>]\n").utf8))
  exit(2)
}

var postgres = PostgresClient.Configuration(
  host: arguments[1], port: port, username: arguments[3], password: arguments[4], database: arguments[5],
  tls: .disable)
// A busy machine may take long to open: the opening's limits are never met here. The operations keep the default
// limit, which is how a worker gets past a query PostgresNIO leaves unanswered when PostgreSQL restarts under it.
postgres.options.connectTimeout = .seconds(90)

var configuration = Outbox.Configuration()
configuration.monitor = .constant(NetworkPath(isOnline: true))
configuration.baseDelay = 0.05
configuration.maxDelay = 0.5
configuration.maxAttempts = 1_000
configuration.maxConcurrentLanes = 8
// COURIER_WORKER_TRACE=1: the store's and the pool's log, and every event, on standard error.
let tracing = ProcessInfo.processInfo.environment["COURIER_WORKER_TRACE"] != nil
var logger = Logger(label: "courier.outbox.worker") { label -> any LogHandler in
  tracing ? StreamLogHandler.standardError(label: label) : SwiftLogNoOpLogHandler()
}
logger.logLevel = .debug
let client = APIClient(baseURL: baseURL) {
  // Limits a busy machine never meets: a call that ends by its limit is sent again, and the fleet test reads an item
  // sent twice as a lane held by two workers. A link the test takes down cuts connections and refuses new ones, so no
  // call waits for these limits.
  $0.transport = AsyncHTTPClientTransport(configuration: AsyncHTTPClientTransport.Configuration(connectTimeout: 600))
  $0.timeout = 600
}
do {
  let outbox = try await Outbox(
    client: client, postgres: postgres,
    options: PostgresOutboxOptions(
      tableName: arguments[6], leaseDuration: .milliseconds(Int(lease * 1000)), connectTimeout: .seconds(90),
      logger: logger),
    configuration: configuration)
  if tracing || killAfter != nil {
    let events = await outbox.events()
    Task {
      var delivered = 0
      for await event in events {
        logger.debug("event \(event)")
        guard case .delivered = event, let killAfter else { continue }
        delivered += 1
        if delivered == killAfter { kill(getpid(), SIGKILL) }
      }
    }
  }
  await outbox.start()
  say("started")
  // PostgreSQL may restart under the fleet: a failed count is asked again.
  while true {
    do {
      try await outbox.waitUntilDrained()
      break
    } catch {
      try await Task.sleep(for: .milliseconds(200))
    }
  }
  say("drained")
  await outbox.stop()
} catch {
  FileHandle.standardError.write(Data("CourierOutboxPostgresWorker: \(error)\n".utf8))
  exit(1)
}
exit(0)
