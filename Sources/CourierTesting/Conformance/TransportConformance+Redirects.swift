import Courier
import Foundation
import HTTPTypes

extension TransportConformance {
  static var redirectCases: [TransportConformanceCase] {
    [
      TransportConformanceCase("A redirect to another origin drops credentials and the headers marked sensitive") {
        run in
        let target = try await run.answering { _, connection in try await connection.respond(200, body: "landed") }
        let origin = try await run.answering { _, connection in
          try await connection.respond(302, headers: [("Location", target.url("/landing").absoluteString)])
        }
        let apiKey = HTTPField.Name("X-Api-Key")!
        let client = run.client(origin) { $0.redirects = .follow(max: 10, removingAcrossOrigins: [apiKey]) }
        let response = try await client.send(
          Endpoint<Data>.get("/start").header(.authorization, "Bearer secret").header(.cookie, "session=1")
            .header(.proxyAuthorization, "Basic eDp5").header(apiKey, "key").header("X-Trace", "kept"))
        try run.expect(String(response.value) == "landed", "the redirect was not followed: \(response.status)")
        try run.expect(
          response.redirects == [target.url("/landing")], "Response.redirects is \(response.redirects)")
        let landed = try target.requests.first.required("the request to the other origin")
        for name in ["Authorization", "Cookie", "Proxy-Authorization", "X-Api-Key"] {
          try run.expect(landed.header(name) == nil, "\(name) was sent to another origin")
        }
        try run.expect(landed.header("X-Trace") == "kept", "an ordinary header was dropped")
      },
      TransportConformanceCase("A redirect within the origin keeps credentials") { run in
        let server = try await run.answering { request, connection in
          if request.path == "/start" {
            try await connection.respond(301, headers: [("Location", "/landing")])
          } else {
            try await connection.respond(200, body: request.header("Authorization") ?? "")
          }
        }
        let response = try await run.client(server).send(
          Endpoint<Data>.get("/start").header(.authorization, "Bearer secret"))
        try run.expect(String(response.value) == "Bearer secret", "the same origin got \(String(response.value))")
      },
      TransportConformanceCase("A 307 or 308 sends the method and body again") { run in
        let server = try await run.answering { request, connection in
          switch request.path {
          case "/307": try await connection.respond(307, headers: [("Location", "/308")])
          case "/308": try await connection.respond(308, headers: [("Location", "/end")])
          default:
            try await connection.respond(
              200, body: "\(request.method) \(String(decoding: request.body, as: UTF8.self))")
          }
        }
        let response = try await run.client(server).send(
          Endpoint<Data>.post("/307").body(Data("payload".utf8), contentType: "text/plain"))
        try run.expect(String(response.value) == "POST payload", "the last hop got \(String(response.value))")
        try run.expect(server.requests.count == 3, "the server saw \(server.requests)")
      },
      TransportConformanceCase("A 301, 302 or 303 after a POST becomes a GET without a body") { run in
        let server = try await run.answering { request, connection in
          switch request.path {
          case "/301": try await connection.respond(301, headers: [("Location", "/302")])
          case "/302": try await connection.respond(302, headers: [("Location", "/303")])
          case "/303": try await connection.respond(303, headers: [("Location", "/end")])
          default:
            let type = request.header("Content-Type") ?? "none"
            try await connection.respond(200, body: "\(request.method) \(request.body.count) \(type)")
          }
        }
        let response = try await run.client(server).send(
          Endpoint<Data>.post("/301").body(Data("payload".utf8), contentType: "text/plain"))
        try run.expect(String(response.value) == "GET 0 none", "the last hop got \(String(response.value))")
        try run.expect(
          server.requests.map(\.method) == ["POST", "GET", "GET", "GET"], "the server saw \(server.requests)")
      },
      TransportConformanceCase("A relative Location is resolved against the request URL") { run in
        let server = try await run.answering { request, connection in
          if request.path == "/a/b/c" {
            try await connection.respond(302, headers: [("Location", "../d?x=1")])
          } else {
            try await connection.respond(200, body: request.target)
          }
        }
        let response = try await run.client(server).send(Endpoint<Data>.get("/a/b/c"))
        try run.expect(String(response.value) == "/a/d?x=1", "the relative Location led to \(String(response.value))")
      },
      TransportConformanceCase("A redirect loop ends the call with a redirect error") { run in
        let server = try await run.answering { request, connection in
          try await connection.respond(302, headers: [("Location", request.path == "/a" ? "/b" : "/a")])
        }
        let error = try await run.error { try await run.client(server).send(Endpoint<Data>.get("/a")) }
        try run.expect(error.kind == .redirect, "a loop ended with \(error)")
        try run.expect(error.status?.code == 302, "the error lost the 3xx response")
        try run.expect(server.requests.count <= 3, "the server saw \(server.requests.count) requests")
      },
      TransportConformanceCase("An endless chain of redirects stops after 10") { run in
        let server = try await run.answering { request, connection in
          let hop = Int(request.path.dropFirst()) ?? 0
          try await connection.respond(302, headers: [("Location", "/\(hop + 1)")])
        }
        let error = try await run.error { try await run.client(server).send(Endpoint<Data>.get("/0")) }
        try run.expect(error.kind == .redirect, "an endless chain ended with \(error)")
        try run.expect(server.requests.count == 11, "the server saw \(server.requests.count) requests, not 11")
      },
      TransportConformanceCase("A redirect the endpoint does not follow is handed back") { run in
        let server = try await run.answering { _, connection in
          try await connection.respond(302, headers: [("Location", "/elsewhere")], body: "moved")
        }
        let response = try await run.client(server).send(
          Endpoint<Data>.get("/start").redirects(.none).expectAnyStatus())
        try run.expect(response.status.code == 302, "got \(response.status)")
        try run.expect(response.headerFields[.location] == "/elsewhere", "the Location was lost")
        try run.expect(server.requests.count == 1, "the server saw \(server.requests)")
      },
      TransportConformanceCase("A redirect to a scheme other than http or https is handed back") { run in
        let server = try await run.answering { _, connection in
          try await connection.respond(302, headers: [("Location", "ftp://127.0.0.1/file")])
        }
        let response = try await run.client(server).send(Endpoint<Data>.get("/start").expectAnyStatus())
        try run.expect(response.status.code == 302, "got \(response.status)")
      },
    ]
  }
}

extension Optional {
  /// The value, or a conformance failure naming what was missing.
  func required(_ what: String) throws -> Wrapped {
    guard let self else { throw TransportConformanceFailure("", "\(what) is missing") }
    return self
  }
}
