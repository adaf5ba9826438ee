import Courier
import Foundation

extension TransportConformance {
  static var requestCases: [TransportConformanceCase] {
    [
      TransportConformanceCase(
        "A header value with a control character or non-ASCII text is refused, naming the header"
      ) { run in
        let server = try await run.answering { _, connection in try await connection.respond(200) }
        let client = run.client(server)
        for value in ["line\u{0B}feed", "caf\u{E9}", "split\r\nX-Injected: 1"] {
          let error = try await run.error { try await client.send(Endpoint<Data>.get("/").header("X-Note", value)) }
          try run.expect(error.kind == .invalidRequest, "\(value.debugDescription) ended with \(error)")
          try run.expect(error.description.contains("X-Note"), "the error does not name the header: \(error)")
        }
        try run.expect(server.requests.isEmpty, "a refused request reached the server")
      },
      TransportConformanceCase("A path with dot segments is refused before it is sent", offline: true) { run in
        let server = try await run.answering { _, connection in try await connection.respond(200) }
        let error = try await run.error {
          try await run.client(server).send(Endpoint<Data>.get("/files/../../etc/passwd"))
        }
        try run.expect(error.kind == .invalidURL, "a dot segment ended with \(error)")
        try run.expect(server.requests.isEmpty, "the server saw \(server.requests)")
      },
      TransportConformanceCase(
        "A streamed body whose bytes disagree with its declared length is refused, and no whole request is sent"
      ) { run in
        let server = try await run.answering { _, connection in try await connection.respond(200) }
        let client = run.client(server)
        for (chunks, had) in [
          ([Data(repeating: 0x61, count: 17)], "17"), ([Data(count: 10), Data(count: 9)], "at least 19"),
        ] {
          let body = BodyStream(
            AsyncStream { continuation in
              for chunk in chunks { continuation.yield(chunk) }
              continuation.finish()
            }, length: 18)
          let error = try await run.error {
            try await client.send(
              Endpoint<Data>.post("/upload").body(.body(body, contentType: "application/octet-stream")).timeout(5)
                .retries(false))
          }
          try run.expect(error.kind == .invalidRequest, "a body of \(had) bytes declared 18 ended with \(error)")
          try run.expect(
            error.detail.contains("declared 18 bytes, the body had \(had)"),
            "the error does not name both lengths: \(error)")
        }
        try run.expect(server.requests.isEmpty, "the server read a whole request: \(server.requests)")
      },
      TransportConformanceCase("Paths, queries and header values reach the server byte for byte") { run in
        let server = try await run.answering { request, connection in
          try await connection.respond(200, body: "\(request.target) \(request.header("X-Note") ?? "-")")
        }
        let response = try await run.client(server).send(
          Endpoint<Data>.get("/a%2Fb/%2E%2E/c").query("q", "x y&z").header("X-Note", "tab\there  and spaces"))
        try run.expect(
          String(response.value) == "/a%2Fb/%2E%2E/c?q=x%20y%26z tab\there  and spaces",
          "the server saw \(String(response.value))")
      },
    ]
  }

  static var startCases: [TransportConformanceCase] {
    [
      TransportConformanceCase("The start handler does not run for a call that never reached a server") { run in
        let closed = try await ScriptedServer.start { _ in }
        await closed.stop()
        let started = Locked(0)
        let events = Locked(0)
        let client = run.client(closed) { configuration in
          configuration.eventHandler = { event in
            if case .started = event { events.withLock { $0 += 1 } }
          }
        }
        _ = try await run.error {
          try await client.send(Endpoint<Data>.get("/").onTransportStart { started.withLock { $0 += 1 } })
        }
        try run.expect(started.withLock { $0 } == 0, "the start handler ran for a refused connection")
        try run.expect(events.withLock { $0 } == 0, "the started event was sent for a refused connection")
      },
      TransportConformanceCase("The start handler does not run while the server has not accepted the connection") {
        run in
        let listener = try await UnacceptingListener.start()
        let started = Locked(0)
        var configuration = APIClient.Configuration(baseURL: listener.baseURL, transport: run.transport)
        configuration.eventHandler = { event in
          if case .started = event { started.withLock { $0 += 1 } }
        }
        let client = APIClient(configuration: configuration)
        let error = try await run.error {
          try await client.send(
            Endpoint<Data>.get("/").timeout(1).retries(false).onTransportStart { started.withLock { $0 += 1 } })
        }
        await listener.stop()
        try run.expect(
          error.kind == .timeout || error.kind == .noConnection, "expected .timeout or .noConnection, got \(error)")
        try run.expect(
          started.withLock { $0 } == 0, "the call started although no connection was made")
      },
      TransportConformanceCase("The start handler runs once, before the call returns, when the request went out") {
        run in
        let server = try await run.answering { request, connection in
          try await Task.sleep(for: .milliseconds(100))
          if request.path == "/" {
            try await connection.respond(302, headers: [("Location", "/done")])
          } else {
            try await connection.respond(200)
          }
        }
        let started = Locked(0)
        let response = try await run.client(server).send(
          Endpoint<Data>.get("/").expectAnyStatus().onTransportStart { started.withLock { $0 += 1 } })
        try run.expect(response.status.code == 200, "got \(response.status)")
        try run.expect(started.withLock { $0 } == 1, "the start handler ran \(started.withLock { $0 }) times")
      },
    ]
  }

  static var streamingCases: [TransportConformanceCase] {
    [
      TransportConformanceCase("Download progress arrives as the bytes arrive, for a small body") { run in
        let server = try await run.server { connection in
          _ = try await connection.readRequest()
          try await connection.write("HTTP/1.1 200 OK\r\nContent-Length: 3000\r\n\r\n")
          for _ in 0..<3 {
            try await connection.write(Array(repeating: UInt8(ascii: "x"), count: 1000))
            try await Task.sleep(for: .milliseconds(200))
          }
        }
        let seen = Locked<[Int64]>([])
        let response = try await run.client(server).send(
          Endpoint<Data>.get("/").onDownloadProgress { progress in seen.withLock { $0.append(progress.completedBytes) }
          }
        )
        let values = seen.withLock { $0 }
        try run.expect(response.value.count == 3000, "got \(response.value.count) bytes")
        let partial = values.filter { $0 > 0 && $0 < 3000 }
        try run.expect(partial.count >= 2, "progress jumped: \(values)")
      },
      TransportConformanceCase("A cancelled stream ends with a cancellation error, never as a complete body") { run in
        let server = try await run.server { connection in
          _ = try await connection.readRequest()
          try await connection.write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
          while true {
            try await connection.write(Array(repeating: UInt8(ascii: "x"), count: 100))
            try await Task.sleep(for: .milliseconds(20))
          }
        }
        let client = run.client(server)
        let firstChunk = AsyncStream<Void>.makeStream()
        let reading = Task {
          let stream = try await client.stream(Endpoint<Data>.get("/"))
          var count = 0
          for try await chunk in stream.body {
            count += chunk.count
            firstChunk.continuation.yield()
          }
          return count
        }
        for await _ in firstChunk.stream { break }
        reading.cancel()
        let result = await reading.result
        switch result {
        case .success(let count):
          throw TransportConformanceFailure("", "the cancelled stream ended after \(count) bytes")
        case .failure(let error as CourierError):
          try run.expect(error.kind == .cancelled, "the cancelled stream ended with \(error)")
        case .failure(let error):
          try run.expect(error is CancellationError, "the cancelled stream ended with \(error)")
        }
      },
    ]
  }

  static var cookieCases: [TransportConformanceCase] {
    [
      TransportConformanceCase("Cookies a server sets are sent back to it, and expire when it says") { run in
        let server = try await run.answering { request, connection in
          switch request.path {
          case "/login":
            try await connection.respond(
              200, headers: [("Set-Cookie", "session=abc; Path=/; HttpOnly"), ("Set-Cookie", "theme=dark")])
          case "/logout":
            try await connection.respond(200, headers: [("Set-Cookie", "session=; Max-Age=0; Path=/")])
          default:
            try await connection.respond(200, body: request.header("Cookie") ?? "none")
          }
        }
        let client = run.client(server)
        _ = try await client.send(Endpoint<Data>.post("/login"))
        let me = try await client.send(Endpoint<Data>.get("/me"))
        try run.expect(String(me.value) == "session=abc; theme=dark", "the next request sent \(String(me.value))")
        _ = try await client.send(Endpoint<Data>.post("/logout"))
        let after = try await client.send(Endpoint<Data>.get("/me"))
        try run.expect(String(after.value) == "theme=dark", "after logout the request sent \(String(after.value))")
      },
      TransportConformanceCase("Cookies set on a redirect are kept, and never sent to another origin") { run in
        let other = try await run.answering { request, connection in
          try await connection.respond(200, body: request.header("Cookie") ?? "none")
        }
        let server = try await run.answering { request, connection in
          switch request.path {
          case "/login":
            try await connection.respond(302, headers: [("Set-Cookie", "session=abc"), ("Location", "/home")])
          case "/away":
            // Cookies ignore ports (RFC 6265 §8.5): another host name makes another origin for them.
            try await connection.respond(302, headers: [("Location", "http://localhost:\(other.port)/landing")])
          default:
            try await connection.respond(200, body: request.header("Cookie") ?? "none")
          }
        }
        let client = run.client(server)
        let home = try await client.send(Endpoint<Data>.get("/login"))
        try run.expect(String(home.value) == "session=abc", "the redirect's target got \(String(home.value))")
        let away = try await client.send(Endpoint<Data>.get("/away"))
        try run.expect(String(away.value) == "none", "another origin got \(String(away.value))")
      },
      TransportConformanceCase("A client without a cookie jar keeps no cookies, and the transport keeps none either") {
        run in
        let server = try await run.answering { request, connection in
          if request.path == "/login" {
            try await connection.respond(200, headers: [("Set-Cookie", "session=abc")])
          } else {
            try await connection.respond(200, body: request.header("Cookie") ?? "none")
          }
        }
        let client = run.client(server) { $0.cookies = nil }
        _ = try await client.send(Endpoint<Data>.get("/login"))
        let me = try await client.send(Endpoint<Data>.get("/me"))
        try run.expect(String(me.value) == "none", "a client without a jar sent \(String(me.value))")
        let own = try await client.send(Endpoint<Data>.get("/me").header(.cookie, "mine=1"))
        try run.expect(String(own.value) == "mine=1", "the caller's own Cookie became \(String(own.value))")
      },
    ]
  }
}
