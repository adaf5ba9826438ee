// Enqueues posts into an outbox and drains it against the demo server until it is killed; the crash test runs it as
// a child process and sends SIGKILL at random moments. It prints `enqueued N` once the enqueue of post N returned
// (the item is then durable), and `drained` when nothing waits.
//
//   CourierOutboxCrashWorker <database path> <base URL> <first index> <count>
import Courier
import CourierOutbox
import Foundation

struct CrashPost: Codable, Sendable {
  var title: String
  var body: String
}

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count == 5, let baseURL = URL(string: arguments[2]), let first = Int(arguments[3]),
  let count = Int(arguments[4])
else {
  FileHandle.standardError.write(Data("usage: CourierOutboxCrashWorker <database> <base URL> <first> <count>\n".utf8))
  exit(2)
}

var configuration = Outbox.Configuration()
configuration.monitor = .constant(NetworkPath(isOnline: true))
configuration.baseDelay = 0.05
configuration.maxAttempts = 1_000
let client = APIClient(baseURL: baseURL) { $0.timeout = 10 }
do {
  let outbox = try Outbox(client: client, path: arguments[1], configuration: configuration)
  await outbox.start()
  for index in first..<(first + count) {
    try await outbox.enqueue(
      Endpoint<Data>.post("/posts", body: CrashPost(title: "crash-\(index)", body: "b")), lane: "lane-\(index % 3)")
    say("enqueued \(index)")
  }
  try await outbox.waitUntilDrained()
  say("drained")
} catch {
  FileHandle.standardError.write(Data("CourierOutboxCrashWorker: \(error)\n".utf8))
  exit(1)
}
