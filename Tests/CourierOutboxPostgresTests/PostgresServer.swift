import CourierTestSupport
import Foundation
import Logging
import PostgresNIO

/// A PostgreSQL server of the test's own: a cluster made in a temporary folder with Debian's `initdb`, listening on
/// 127.0.0.1 with password authentication, stopped and removed at the end. `nil` when PostgreSQL is not installed,
/// unless `COURIER_REQUIRE_POSTGRES` is set (CI), where that is a failure.
final class PostgresServer: Sendable {
  let folder: URL
  let port: Int
  let user = "courier"
  let password = "courier-test"
  let database = "postgres"
  private let binaries: URL

  struct Missing: Error, CustomStringConvertible {
    var description: String
  }

  private init(folder: URL, port: Int, binaries: URL) {
    self.folder = folder
    self.port = port
    self.binaries = binaries
  }

  /// Where `initdb` and `pg_ctl` are: Debian's `/usr/lib/postgresql/<version>/bin`, newest first.
  static var binaries: URL? {
    let root = URL(fileURLWithPath: "/usr/lib/postgresql")
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return versions.compactMap(Int.init).sorted(by: >).map {
      root.appendingPathComponent("\($0)/bin")
    }.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) }
  }

  static var isRequired: Bool { ProcessInfo.processInfo.environment["COURIER_REQUIRE_POSTGRES"] != nil }

  /// Makes and starts a cluster, or returns `nil` when PostgreSQL is not installed and not required.
  static func start() async throws -> PostgresServer? {
    guard let binaries else {
      if isRequired {
        throw Missing(description: "PostgreSQL is required (COURIER_REQUIRE_POSTGRES) but not installed")
      }
      return nil
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-pg-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // Below the ephemeral range (32768 and up), so that no outgoing connection of a parallel test holds the port; a
    // port another cluster took meanwhile makes the start fail, and another is tried.
    var server = PostgresServer(folder: folder, port: Int.random(in: 20_000..<32_000), binaries: binaries)
    try Data(server.password.utf8).write(to: folder.appendingPathComponent("password"))
    if getuid() == 0 {
      // initdb refuses to run as root: the cluster belongs to the postgres user.
      _ = await ChildProcess.run("/bin/chown", ["-R", "postgres", folder.path])
    }
    try await server.command(
      "initdb",
      [
        "-D", server.data, "-U", server.user, "--pwfile=\(folder.appendingPathComponent("password").path)",
        "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--no-sync",
      ])
    for attempt in 1...5 {
      do {
        try await server.startServer()
        return server
      } catch {
        let log = (try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? ""
        guard attempt < 5 else { throw Missing(description: "\(error); the server's log: \(log.suffix(2_000))") }
        server = PostgresServer(folder: folder, port: Int.random(in: 20_000..<32_000), binaries: binaries)
      }
    }
    return server
  }

  var data: String { folder.appendingPathComponent("data").path }

  private func startServer() async throws {
    try await command(
      "pg_ctl",
      [
        "-D", data, "-l", folder.appendingPathComponent("log").path, "-w", "-t", "60", "-o",
        "-c listen_addresses=127.0.0.1 -p \(port) -k \(folder.path) -c fsync=off -c max_connections=200",
        "start",
      ])
  }

  /// Stops the server at once (as a crash would, with `-m immediate`) and starts it again.
  func restart(after pause: Duration = .zero, mode: String = "fast") async throws {
    try await command("pg_ctl", ["-D", data, "-m", mode, "-w", "stop"])
    try await Task.sleep(for: pause)
    try await startServer()
  }

  /// Stops the server and removes its folder.
  func stop() async {
    _ = try? await command("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
    try? FileManager.default.removeItem(at: folder)
  }

  /// Runs one of PostgreSQL's programs, as the postgres user when the tests run as root.
  private func command(_ name: String, _ arguments: [String]) async throws {
    let program = binaries.appendingPathComponent(name).path
    let (status, output) =
      getuid() == 0
      ? await ChildProcess.run("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments)
      : await ChildProcess.run(program, arguments)
    guard status == 0 else { throw Missing(description: "\(name) failed (\(status)): \(output)") }
  }

  /// A client configuration for this server, whose connections a busy machine never times out.
  func configuration(password: String? = nil, database: String? = nil) -> PostgresClient.Configuration {
    var configuration = PostgresClient.Configuration(
      host: "127.0.0.1", port: port, username: user, password: password ?? self.password,
      database: database ?? self.database, tls: .disable)
    configuration.options.connectTimeout = .seconds(90)
    return configuration
  }

  /// The worker program's arguments for this server, before the table, lease and base URL.
  var workerArguments: [String] { ["127.0.0.1", "\(port)", user, password, database] }
}

/// Runs `body` with a PostgreSQL server of its own and a running client of it; skips (returns) when PostgreSQL is not
/// installed and not required.
func withPostgres(
  _ body: (PostgresServer, PostgresClient) async throws -> Void
) async throws {
  guard let server = try await PostgresServer.start() else {
    print("PostgreSQL is not installed: skipped")
    return
  }
  let client = PostgresClient(configuration: server.configuration())
  let running = Task { await client.run() }
  do {
    try await body(server, client)
  } catch {
    running.cancel()
    await server.stop()
    throw error
  }
  running.cancel()
  await server.stop()
}
