import Courier
import Foundation

extension TransportConformance {
  static var connectionCases: [TransportConformanceCase] {
    [
      TransportConformanceCase("A refused connection is reported at once as no connection") { run in
        let closed = try await ScriptedServer.start { _ in }
        await closed.stop()
        let client = run.client(closed)
        let (error, elapsed) = try await run.timed {
          try await run.error { try await client.send(Endpoint<Data>.get("/").timeout(30)) }
        }
        try run.expect(error.kind == .noConnection, "a refused connection ended with \(error)")
        try run.expect(elapsed < 1 + run.slack, "the refusal was reported after \(elapsed) s")
      },
      TransportConformanceCase("An unknown host is reported at once as no connection") { run in
        // A 64-letter label is not a DNS name: the resolver fails it without asking a name server, so the case
        // stays on this machine.
        let host = String(repeating: "a", count: 64) + ".invalid"
        let server = try await run.answering { _, connection in try await connection.respond(200) }
        let client = run.client(server)
        let (error, elapsed) = try await run.timed {
          try await run.error { try await client.send(Endpoint<Data>.get("/").url(URL(string: "https://\(host)/")!)) }
        }
        try run.expect(error.kind == .noConnection, "an unknown host ended with \(error)")
        try run.expect(elapsed < 1 + run.slack, "the unknown host was reported after \(elapsed) s")
      },
      TransportConformanceCase("An unreachable network is reported at once as no connection") { run in
        // TCP to a multicast address has no route: the kernel refuses the connect without sending a packet.
        let server = try await run.answering { _, connection in try await connection.respond(200) }
        let client = run.client(server)
        let (error, elapsed) = try await run.timed {
          try await run.error {
            try await client.send(Endpoint<Data>.get("/").url(URL(string: "https://224.0.0.1:9/")!).timeout(30))
          }
        }
        try run.expect(error.kind == .noConnection, "an unreachable network ended with \(error)")
        try run.expect(elapsed < 1 + run.slack, "the unreachable network was reported after \(elapsed) s")
      },
      TransportConformanceCase("A TLS handshake with a server that does not speak TLS fails at once as .tls") { run in
        let server = try await run.server { connection in
          // The client's hello is not a request: answer it with plain text, as a plain HTTP server would.
          _ = try await connection.read()
          try await connection.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
          await connection.close()
        }
        let client = run.client(server)
        let (error, elapsed) = try await run.timed {
          try await run.error {
            try await client.send(Endpoint<Data>.get("/").url(URL(string: "https://127.0.0.1:\(server.port)/")!))
          }
        }
        try run.expect(error.kind == .tls, "a failed handshake ended with \(error)")
        try run.expect(elapsed < 1 + run.slack, "the failed handshake was reported after \(elapsed) s")
      },
      TransportConformanceCase("A reset in the middle of the body is a lost connection with the head kept") { run in
        let server = try await run.server { connection in
          _ = try await connection.readRequest()
          try await connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
          try await connection.write(Array(repeating: UInt8(ascii: "x"), count: 100))
          // Time for the head to reach a client on a loaded machine before the reset.
          try await Task.sleep(for: .milliseconds(500))
          await connection.reset()
        }
        let error = try await run.error { try await run.client(server).send(Endpoint<Data>.get("/")) }
        try run.expect(error.kind == .connectionLost, "a reset ended with \(error)")
        try run.expect(error.status?.code == 200, "the error lost the response head")
      },
      TransportConformanceCase("A body shorter than its Content-Length is a retryable lost connection") { run in
        let server = try await run.server { connection in
          _ = try await connection.readRequest()
          try await connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nshort")
          await connection.close()
        }
        let error = try await run.error { try await run.client(server).send(Endpoint<Data>.get("/")) }
        try run.expect(error.kind == .connectionLost, "a short body ended with \(error)")
        try run.expect(error.isRetryable, "a lost GET is not retryable")
        try run.expect(error.status?.code == 200, "the error lost the response head")
      },
      TransportConformanceCase("A chunked body cut before its last chunk is a lost connection") { run in
        let server = try await run.server { connection in
          _ = try await connection.readRequest()
          try await connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
          await connection.close()
        }
        let error = try await run.error { try await run.client(server).send(Endpoint<Data>.get("/")) }
        try run.expect(error.kind == .connectionLost, "a cut chunked body ended with \(error)")
      },
      TransportConformanceCase("A POST the server resets on a reused connection is sent once, not replayed") { run in
        let server = try await run.server { connection in
          while let request = try await connection.readRequest() {
            guard request.method == "POST" else {
              try await connection.respond(200, body: "warm")
              continue
            }
            await connection.reset()
            return
          }
        }
        let client = run.client(server)
        _ = try await client.send(Endpoint<Data>.get("/warm"))
        let error = try await run.error {
          try await client.send(Endpoint<Data>.post("/order").body(Data("one order".utf8)).timeout(5))
        }
        let posts = server.requests.filter { $0.method == "POST" }.count
        try run.expect(posts == 1, "the server saw the POST \(posts) times")
        try run.expect(error.kind == .connectionLost, "the reset POST ended with \(error)")
        try run.expect(!error.isRetryable, "a POST that may have reached the server is retryable")
      },
      TransportConformanceCase("A POST the server resets on a new connection is sent once, not replayed") { run in
        let server = try await run.server { connection in
          guard try await connection.readRequest() != nil else { return }
          await connection.reset()
        }
        let error = try await run.error {
          try await run.client(server).send(Endpoint<Data>.post("/order").body(Data("one order".utf8)).timeout(5))
        }
        let posts = server.requests.filter { $0.method == "POST" }.count
        try run.expect(posts == 1, "the server saw the POST \(posts) times")
        try run.expect(error.kind == .connectionLost, "the reset POST ended with \(error)")
      },
      TransportConformanceCase("A GET after the server closed an idle kept-alive connection succeeds") { run in
        let server = try await run.server { connection in
          guard let request = try await connection.readRequest() else { return }
          try await connection.respond(200, body: request.path)
          try await Task.sleep(for: .milliseconds(50))
          await connection.close()
        }
        let client = run.client(server)
        _ = try await client.send(Endpoint<Data>.get("/first"))
        try await Task.sleep(for: .milliseconds(300))
        let response = try await client.send(Endpoint<Data>.get("/second").timeout(5))
        try run.expect(String(response.value) == "/second", "the second GET got \(String(response.value))")
      },
    ]
  }

  static var framingCases: [TransportConformanceCase] {
    [
      TransportConformanceCase("Interim 1xx responses are skipped") { run in
        let server = try await run.answering { _, connection in
          try await connection.write(
            "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
              + "HTTP/1.1 100 Continue\r\n\r\n"
              + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfinal")
        }
        let response = try await run.client(server).send(Endpoint<Data>.get("/"))
        try run.expect(response.status.code == 200, "got \(response.status)")
        try run.expect(String(response.value) == "final", "got \(String(response.value))")
      },
      TransportConformanceCase("An HTTP/1.0 response without a length is read until the server closes") { run in
        let server = try await run.server { connection in
          _ = try await connection.readRequest()
          try await connection.write("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nall of ")
          try await Task.sleep(for: .milliseconds(50))
          try await connection.write("the body")
          await connection.close()
        }
        let response = try await run.client(server).send(Endpoint<Data>.get("/"))
        try run.expect(String(response.value) == "all of the body", "got \(String(response.value))")
      },
      TransportConformanceCase("A HEAD response with a Content-Length has no body") { run in
        let server = try await run.answering { request, connection in
          if request.method == "HEAD" {
            try await connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
          } else {
            try await connection.respond(200, body: "after head")
          }
        }
        let client = run.client(server)
        let head = try await client.send(Endpoint<Data>.head("/").timeout(5))
        try run.expect(head.value.isEmpty, "HEAD got \(head.value.count) bytes")
        try run.expect(head.headerFields[.contentLength] == "1000", "the Content-Length was lost")
        let get = try await client.send(Endpoint<Data>.get("/").timeout(5))
        try run.expect(String(get.value) == "after head", "the next GET got \(String(get.value))")
      },
      TransportConformanceCase("A 204 or 304 has no body, whatever bytes the server sends after it") { run in
        let server = try await run.server { connection in
          while let request = try await connection.readRequest() {
            switch request.path {
            case "/204": try await connection.write("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nstray")
            case "/304": try await connection.write("HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\nstray")
            default: try await connection.respond(200, body: "clean")
            }
          }
        }
        let client = run.client(server)
        for status in [204, 304] {
          let response = try await client.send(
            Endpoint<Data>.get("/\(status)").header(.ifNoneMatch, "\"v1\"").expectAnyStatus().timeout(5))
          try run.expect(response.status.code == status, "got \(response.status)")
          try run.expect(response.value.isEmpty, "a \(status) got a body of \(response.value.count) bytes")
          // The stray bytes may break the connection; they must never be taken for the next response.
          let next: Result<APIResponse<Data>, any Error>
          do { next = .success(try await client.send(Endpoint<Data>.get("/next").timeout(5))) } catch {
            next = .failure(error)
          }
          if case .success(let response) = next {
            try run.expect(String(response.value) == "clean", "after a \(status) the next call got \(response)")
          } else if case .failure(let error) = next {
            try run.expect(error is CourierError, "after a \(status) the next call threw \(error)")
          }
        }
      },
      TransportConformanceCase("Invalid chunked encoding is an error, not a body") { run in
        let server = try await run.server { connection in
          _ = try await connection.readRequest()
          try await connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n")
          await connection.hang()
        }
        let error = try await run.error { try await run.client(server).send(Endpoint<Data>.get("/").timeout(5)) }
        try run.expect(error.kind != .timeout, "invalid chunked encoding was noticed only at the deadline")
      },
    ]
  }
}
