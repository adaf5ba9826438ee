import Courier
import Foundation

extension TransportConformance {
  static var deadlineCases: [TransportConformanceCase] {
    [
      TransportConformanceCase("A sub-second deadline expires on time when the server never answers") { run in
        let server = try await run.server { connection in
          _ = try await connection.readRequest()
          await connection.hang()
        }
        let (error, elapsed) = try await run.timed {
          try await run.error { try await run.client(server).send(Endpoint<Data>.get("/silent").timeout(0.5)) }
        }
        try run.expect(error.kind == .timeout, "a silent server ended with \(error)")
        try run.expect(!Task.isCancelled, "the deadline cancelled the calling task")
        try run.expect(elapsed >= 0.49, "the 0.5 s deadline expired after \(elapsed) s")
        try run.expect(elapsed <= 0.5 + run.slack, "the 0.5 s deadline expired after \(elapsed) s")
      },
      TransportConformanceCase("The deadline covers the body: a trickled body is cut at the deadline") { run in
        let server = try await run.server { connection in
          _ = try await connection.readRequest()
          try await connection.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
          try await connection.trickle(Array(repeating: UInt8(ascii: "x"), count: 100), every: .milliseconds(100))
        }
        let (error, elapsed) = try await run.timed {
          try await run.error { try await run.client(server).send(Endpoint<Data>.get("/trickle").timeout(1)) }
        }
        try run.expect(error.kind == .timeout, "a trickled body ended with \(error)")
        try run.expect(!Task.isCancelled, "the deadline cancelled the calling task")
        try run.expect(error.status?.code == 200, "the error lost the response head")
        try run.expect(elapsed <= 1 + run.slack, "the 1 s deadline expired after \(elapsed) s")
      },
      TransportConformanceCase("A response that never finishes ends at the deadline") { run in
        let server = try await run.server { connection in
          _ = try await connection.readRequest()
          try await connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
          await connection.hang()
        }
        let (error, elapsed) = try await run.timed {
          try await run.error { try await run.client(server).send(Endpoint<Data>.get("/endless").timeout(0.5)) }
        }
        try run.expect(error.kind == .timeout, "an endless response ended with \(error)")
        try run.expect(!Task.isCancelled, "the deadline cancelled the calling task")
        try run.expect(elapsed <= 0.5 + run.slack, "the 0.5 s deadline expired after \(elapsed) s")
      },
      TransportConformanceCase("An idle timeout ends a call whose server goes quiet, and spares one that keeps sending")
      { run in
        // The idle timeout counts from the last bytes: each quiet call is timed from the moment its server went quiet,
        // not from its start (a busy machine may take a while to connect and send the request, which the timeout
        // does not cover).
        let quietSince = Locked<ContinuousClock.Instant?>(nil)
        let server = try await run.answering { request, connection in
          try await connection.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n")
          if request.path == "/quiet" {
            try await connection.write(Array("hello".utf8))
            quietSince.withLock { $0 = .now }
            await connection.hang()
          } else {
            try await connection.trickle(Array("0123456789".utf8), every: .milliseconds(100))
          }
        }
        let client = run.client(server)
        let (error, _) = try await run.timed {
          try await run.error { try await client.send(Endpoint<Data>.get("/quiet").timeout(10).idleTimeout(0.5)) }
        }
        let sinceQuiet = Self.secondsSince(quietSince.withLock { $0 })
        try run.expect(error.kind == .timeout, "a quiet server ended with \(error)")
        try run.expect(error.status?.code == 200, "the error lost the response head")
        try run.expect(
          sinceQuiet <= 0.5 + run.slack, "the 0.5 s idle timeout fired \(sinceQuiet) s after the server went quiet")
        // A chunk every 100 ms: only a machine that stood still for half a second between two can end it, and then
        // the check is inconclusive rather than failed (see `ConformanceRun.expect(_:_:)`).
        let (steady, _) = await run.timed { () async -> Result<APIResponse<Data>, any Error> in
          do {
            return .success(try await client.send(Endpoint<Data>.get("/steady").timeout(10).idleTimeout(0.5)))
          } catch {
            return .failure(error)
          }
        }
        let received = (try? steady.get()).map { String($0.value) }
        try run.expect(received == "0123456789", "a steady trickle got \(String(describing: steady))")
        let stream = try await client.stream(Endpoint<Data>.get("/quiet").timeout(10).idleTimeout(0.5))
        let (streamError, _) = try await run.timed {
          try await run.error { try await stream.body.collect() }
        }
        let streamQuiet = Self.secondsSince(quietSince.withLock { $0 })
        try run.expect(streamError.kind == .timeout, "a quiet stream ended with \(streamError)")
        try run.expect(
          streamQuiet <= 0.5 + run.slack, "the stream's idle timeout fired \(streamQuiet) s after the server went quiet"
        )
        let configured = run.client(server) { $0.idleTimeout = 0.5 }
        let quiet = try await run.error { try await configured.send(Endpoint<Data>.get("/quiet").timeout(10)) }
        try run.expect(quiet.kind == .timeout, "the client's idle timeout ended a quiet server with \(quiet)")
      },
    ]
  }

  /// Seconds from `instant` to now; infinity when there was no such instant.
  static func secondsSince(_ instant: ContinuousClock.Instant?) -> Double {
    instant.map { ConformanceRun.seconds($0.duration(to: .now)) } ?? .infinity
  }

  static var challengeCases: [TransportConformanceCase] {
    [
      TransportConformanceCase("A 401 with any WWW-Authenticate scheme is returned at once as a response") { run in
        let challenges = [
          #"Basic realm="api""#, #"Digest realm="api", nonce="abc123", qop="auth", algorithm=SHA-256"#,
          "Negotiate", "NTLM", #"Bearer realm="api", error="invalid_token""#, #"Custom realm="api""#,
        ]
        let server = try await run.answering { request, connection in
          let index = Int(request.path.dropFirst()) ?? 0
          try await connection.respond(
            401, headers: [("WWW-Authenticate", challenges[index % challenges.count])], body: "denied")
        }
        let client = run.client(server)
        for index in challenges.indices {
          let (response, elapsed) = try await run.timed {
            try await client.send(Endpoint<Data>.get("/\(index)").expectAnyStatus().timeout(5))
          }
          try run.expect(response.status.code == 401, "\(challenges[index]) ended with \(response.status)")
          try run.expect(String(response.value) == "denied", "\(challenges[index]) lost the body")
          try run.expect(elapsed < 1 + run.slack, "\(challenges[index]) took \(elapsed) s")
        }
        try run.expect(
          server.requests.count == challenges.count, "the server saw \(server.requests.count) requests")
        try run.expect(
          server.requests.allSatisfy { $0.header("Authorization") == nil }, "the transport answered a challenge")
      },
      TransportConformanceCase("A 407 with a Proxy-Authenticate challenge is returned at once as a response") { run in
        let server = try await run.answering { _, connection in
          try await connection.respond(407, headers: [("Proxy-Authenticate", #"Basic realm="proxy""#)])
        }
        let response = try await run.client(server).send(Endpoint<Data>.get("/").expectAnyStatus().timeout(5))
        try run.expect(response.status.code == 407, "got \(response.status)")
        try run.expect(server.requests.count == 1, "the server saw \(server.requests.count) requests")
      },
    ]
  }
}
