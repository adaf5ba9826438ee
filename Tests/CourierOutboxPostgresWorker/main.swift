// A delivery worker of a fleet sharing one PostgreSQL outbox: it opens the outbox, delivers until nothing waits,
// prints `drained`, and exits. The fleet tests run several at once, kill one with SIGKILL, and restart PostgreSQL
// under them.
//
//   CourierOutboxPostgresWorker <host> <port> <user> <password> <database> <table> <lease seconds> <base URL>
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
guard arguments.count == 9, let port = Int(arguments[2]), let lease = Double(arguments[7]),
  let baseURL = URL(string: arguments[8])
else {
  FileHandle.standardError.write(
    Data(
      ("usage: CourierOutboxPostgresWorker <host> <port> <user> <password> <database> <table> <lease seconds> "
        + "<base URL>\n").utf8))
  exit(2)
}

let postgres = PostgresClient.Configuration(
  host: arguments[1], port: port, username: arguments[3], password: arguments[4], database: arguments[5],
  tls: .disable)

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
  $0.transport = AsyncHTTPClientTransport()
  $0.timeout = 10
}
do {
  let outbox = try await Outbox(
    client: client, postgres: postgres,
    options: PostgresOutboxOptions(
      tableName: arguments[6], leaseDuration: .milliseconds(Int(lease * 1000)), logger: logger),
    configuration: configuration)
  if tracing {
    let events = await outbox.events()
    Task {
      for await event in events { logger.debug("event \(event)") }
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
