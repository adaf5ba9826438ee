import CourierTestSupport
import Foundation

@testable import Courier

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// nginx serving static files on 127.0.0.1 with its own configuration, started for one test: a server we did not
/// write, with real `ETag`, `Last-Modified` and `Expires` headers.
final class Nginx: Sendable {
  static let binary: String? = [
    "/usr/sbin/nginx", "/usr/local/sbin/nginx", "/opt/homebrew/bin/nginx", "/usr/local/bin/nginx",
  ]
  .first { FileManager.default.isExecutableFile(atPath: $0) }

  /// CI sets COURIER_REQUIRE_NGINX=1 so a missing nginx fails instead of skipping.
  static var isAvailable: Bool {
    binary != nil || ProcessInfo.processInfo.environment["COURIER_REQUIRE_NGINX"] == "1"
  }

  let directory: URL
  let port: Int
  let process: ChildProcess

  var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
  var root: URL { directory.appendingPathComponent("www") }

  static func start() async throws -> Nginx {
    guard let binary else {
      throw NginxError("nginx is not installed: `apt-get install nginx` (CI installs it in .ci/run)")
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-nginx-\(UUID().uuidString)")
    for folder in [
      "www/static", "www/plain", "www/nostore", "www/hop", "www/hop-fresh", "www/vary", "www/vary-star", "www/drop",
      "tmp",
    ] {
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    let port = try freePort()
    let path = directory.path
    let ruleLocations = Self.ruleLocations(lastModified: HTTPDate.format(Date().addingTimeInterval(-10 * 86_400)))
    let configuration = """
      daemon off;
      master_process off;
      worker_processes 1;
      error_log \(path)/error.log warn;
      pid \(path)/nginx.pid;
      events { worker_connections 64; }
      http {
        access_log \(path)/access.log;
        client_body_temp_path \(path)/tmp/body;
        proxy_temp_path \(path)/tmp/proxy;
        fastcgi_temp_path \(path)/tmp/fastcgi;
        uwsgi_temp_path \(path)/tmp/uwsgi;
        scgi_temp_path \(path)/tmp/scgi;
        default_type application/octet-stream;
        server {
          listen 127.0.0.1:\(port);
          root \(path)/www;
          location /static/ { expires 60s; }
          location /nostore/ { add_header Cache-Control "no-store"; }
      \(ruleLocations)
        }
      }
      """
    let conf = directory.appendingPathComponent("nginx.conf")
    try configuration.write(to: conf, atomically: true, encoding: .utf8)
    let process = try ChildProcess.start(binary, ["-p", path, "-c", conf.path])
    let server = Nginx(directory: directory, port: port, process: process)
    for _ in 0..<200 {
      if canConnect(port: port) { return server }
      try await Task.sleep(for: .milliseconds(20))
    }
    server.stop()
    let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    throw NginxError("nginx did not start on port \(port): \(log)")
  }

  /// Locations that send exactly the fields one RFC 9111 rule is about (`add_header … always` with `return`), for
  /// the cache's end-to-end rule tests.
  static func ruleLocations(lastModified: String) -> String {
    let hopByHop = """
      add_header Connection "X-Hop"; add_header X-Hop "1"; add_header Keep-Alive "timeout=9";
      add_header Upgrade "h2c"; add_header TE "trailers"; add_header Proxy-Connection "keep-alive";
      add_header X-Kept "yes";
      """
    let mustUnderstand = #"add_header Cache-Control "max-age=60, must-understand, no-store" always;"#
    return """
      location /hop/ { add_header Cache-Control "no-cache"; \(hopByHop) }
      location /hop-fresh/ { expires 60s; \(hopByHop) }
      location = /age/list { add_header Cache-Control "max-age=3600" always; add_header Age "7200, 0" always; return 200 "age"; }
      location = /age/lines { add_header Cache-Control "max-age=3600" always; add_header Age 7200 always; add_header Age 0 always; return 200 "age"; }
      location = /age/invalid { add_header Cache-Control "max-age=3600" always; add_header Age "7200.0" always; return 200 "age"; }
      location = /expires/utc { add_header Expires "Thu, 01 Jan 2099 00:00:00 UTC" always; return 200 "utc"; }
      location = /expires/gmt { add_header Expires "Thu, 01 Jan 2099 00:00:00 GMT" always; return 200 "gmt"; }
      location = /heuristic/200 { add_header Last-Modified "\(lastModified)" always; return 200 "heuristic"; }
      location = /heuristic/599 { add_header Last-Modified "\(lastModified)" always; return 599 "heuristic"; }
      location = /post { add_header Cache-Control "max-age=600" always; add_header Content-Location "/post" always; return 200 "from $request_method"; }
      location = /mu/200 { \(mustUnderstand) return 200 "understood"; }
      location = /mu/599 { \(mustUnderstand) return 599 "not understood"; }
      location /vary/ { expires 60s; add_header Vary "Accept-Language"; }
      location /vary-star/ { expires 60s; add_header Vary "*"; }
      location /drop/ {
        if (-f $document_root/dropping) { return 444; }
        add_header Cache-Control "max-age=0, stale-if-error=600";
      }
      """
  }

  private init(directory: URL, port: Int, process: ChildProcess) {
    self.directory = directory
    self.port = port
    self.process = process
  }

  func write(_ text: String, to path: String) throws {
    try text.write(to: root.appendingPathComponent(path), atomically: true, encoding: .utf8)
  }

  /// Makes nginx close every connection to `/drop/` without answering (its status 444) while `on`.
  func dropping(_ on: Bool) throws {
    let flag = root.appendingPathComponent("dropping")
    if on { try write("", to: "dropping") } else { try? FileManager.default.removeItem(at: flag) }
  }

  /// The status codes nginx logged for `path`, in order: every request answered before this call is in the log.
  func loggedStatuses(for path: String) -> [Int] {
    // nginx writes a request's log line after sending its answer: a client may read the answer before the line is
    // written. It runs one process that finishes a request (answer, then log line) before it reads the next, and
    // closes an HTTP/1.0 connection only after logging its request: once a request of ours ends that way, every
    // request answered before it is logged.
    syncLog()
    let log = (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
    return log.split(separator: "\n").compactMap { line -> Int? in
      guard line.contains("\"GET \(path) ") || line.contains("\"HEAD \(path) ") else { return nil }
      let afterRequest = line.components(separatedBy: "\" ").dropFirst().first ?? ""
      return Int(afterRequest.split(separator: " ").first ?? "")
    }
  }

  /// Stops nginx with SIGTERM, on which its master stops its worker too (SIGKILL would leave the worker running),
  /// and reaps it.
  func stop() {
    process.terminateBlocking()
    try? FileManager.default.removeItem(at: directory)
  }

  /// Sends an HTTP/1.0 request for a path nothing serves and reads until nginx closes the connection (a blocking
  /// exchange of a few hundred bytes with a local process).
  private func syncLog() {
    let socket = Self.socket()
    defer { close(socket) }
    var address = Self.loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return }
    let request = Array("GET /courier-log-sync HTTP/1.0\r\n\r\n".utf8)
    guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.count else { return }
    var buffer = [UInt8](repeating: 0, count: 4096)
    while buffer.withUnsafeMutableBytes({ recv(socket, $0.baseAddress, $0.count, 0) }) > 0 {}
  }

  static func freePort() throws -> Int {
    let socket = Self.socket()
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
    }
    guard bound == 0 else { throw NginxError("no free port") }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  static func canConnect(port: Int) -> Bool {
    let socket = Self.socket()
    defer { close(socket) }
    var address = Self.loopback(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    } == 0
  }

  /// The address of `port` on 127.0.0.1.
  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
  }

  private static func socket() -> Int32 {
    #if canImport(Glibc)
    Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #endif
  }
}

struct NginxError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
