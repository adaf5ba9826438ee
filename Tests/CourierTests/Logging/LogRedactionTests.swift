import CourierTestSupport
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Courier

@Suite struct LogRedactionTests {
  static let secrets = [
    "s3cr3t-bearer-token", "basic-pa55word", Data("ada:basic-pa55word".utf8).base64EncodedString(),
    "cookie-s3cret", "header-k3y", "query-pa55", "query-t0ken", "query-k3y", "json-pa55", "json-k3y",
    "json-refresh", "json-s3cret", "array-t0ken", "form-pa55", "form-s3cret", "form-t0ken", "set-cookie-s3cret",
    "resp-t0ken",
  ]

  let redactor = LogRedactor()

  @Test func headersKeepTheirNameAndCredentialScheme() {
    #expect(redactor.value(of: HTTPField(name: .authorization, value: "Bearer abc")) == "Bearer <redacted>")
    #expect(redactor.value(of: HTTPField(name: .proxyAuthorization, value: "Basic eDp5")) == "Basic <redacted>")
    #expect(redactor.value(of: HTTPField(name: .authorization, value: "rawtoken")) == "<redacted>")
    #expect(redactor.value(of: HTTPField(name: .cookie, value: "a=b; c=d")) == "<redacted>")
    #expect(redactor.value(of: HTTPField(name: HTTPField.Name("x-api-key")!, value: "k")) == "<redacted>")
    #expect(redactor.value(of: HTTPField(name: .accept, value: "text/html")) == "text/html")
  }

  @Test func queryValuesAreHiddenByCaseInsensitiveKey() {
    let url = redactor.url(
      of: HTTPRequest(
        method: .get, scheme: "https", authority: "h.example", path: "/p?q=a+b&Password=x&API_KEY=y&user%5Btoken%5D=z&t"
      ))
    #expect(url == "https://h.example/p?q=a+b&Password=<redacted>&API_KEY=<redacted>&user%5Btoken%5D=<redacted>&t")
    #expect(redactor.pathAndQuery("/plain/path") == "/plain/path")
    #expect(redactor.authority("user:pw@h.example:8443") == "<redacted>@h.example:8443")
  }

  @Test func jsonFieldsAreHiddenAtAnyDepthWithSortedKeys() {
    let json = #"{"user":{"name":"Ada","password":"p","tags":[{"token":"t","kind":"x"}]},"accessToken":{"a":1},"n":1}"#
    #expect(
      redactor.body(json, contentType: "application/json")
        == #"{"accessToken":"<redacted>","n":1,"user":{"name":"Ada","password":"<redacted>","#
        + #""tags":[{"kind":"x","token":"<redacted>"}]}}"#)
    #expect(redactor.body(#"[{"PassWord":"p"}]"#, contentType: "application/json") == #"[{"PassWord":"<redacted>"}]"#)
  }

  @Test func jsonWithoutSecretsIsLoggedAsSent() {
    let json = #"{ "price": 1.10, "b": [1, 2], "a": "x" }"#
    #expect(redactor.body(json, contentType: "application/vnd.api+json") == json)
  }

  @Test func jsonIsSniffedWithoutAContentType() {
    #expect(redactor.body(#"[{"secret":"s"}]"#, contentType: nil) == #"[{"secret":"<redacted>"}]"#)
    #expect(redactor.body("secret=s", contentType: nil) == "secret=s")
  }

  @Test func malformedOrCutJSONIsRedactedTextually() {
    let cut =
      #"{"name": "Ada", "password" : "hun\"ter", "nested": {"token": {"deep": [1, "x"]}, "n": 5}, "#
      + #""apiKey": 12, "refresh_token": "abc"#
    #expect(
      redactor.body(cut, contentType: "application/json")
        == #"{"name": "Ada", "password" : "<redacted>", "nested": {"token": "<redacted>", "n": 5}, "#
        + #""apiKey": "<redacted>", "refresh_token": "<redacted>""#)
    #expect(redactor.body(#"{"secret": "#, contentType: "application/json") == #"{"secret": "<redacted>""#)
    #expect(
      redactor.body(#"{"a": "password", "b": ["token"]}"#, contentType: "application/json", isComplete: false)
        == #"{"a": "password", "b": ["token"]}"#)
  }

  @Test func formFieldsAreHidden() {
    let form = "username=ada&password=p%20w&Client_Secret=s&user%5Btoken%5D=t&note=hi+there"
    #expect(
      redactor.body(form, contentType: "application/x-www-form-urlencoded; charset=utf-8")
        == "username=ada&password=<redacted>&Client_Secret=<redacted>&user%5Btoken%5D=<redacted>&note=hi+there")
  }

  @Test func customRulesAndPlaceholderApply() {
    var logging = LoggingInterceptor(logger: LogCapture().logger())
    logging.redactedBodyFields = ["PIN"]
    logging.redactedQueryKeys = ["sig"]
    logging.redactedHeaders = [HTTPField.Name("X-Session")!]
    logging.placeholder = "***"
    let redactor = logging.redactor
    #expect(
      redactor.body(#"{"pin":"1234","password":"p"}"#, contentType: "application/json")
        == #"{"password":"p","pin":"***"}"#)
    #expect(redactor.pathAndQuery("/x?sig=abc&token=t") == "/x?sig=***&token=t")
    #expect(redactor.value(of: HTTPField(name: HTTPField.Name("x-session")!, value: "v")) == "***")
    #expect(redactor.value(of: HTTPField(name: .authorization, value: "Bearer t")) == "Bearer t")
    let configured = LoggingInterceptor(logger: LogCapture().logger()) { $0.placeholder = "***" }
    #expect(configured.redactor.pathAndQuery("/x?token=t") == "/x?token=***")
  }

  @Test func noSecretReachesTheLogThroughAClient() async throws {
    let capture = LogCapture()
    let transport = LoggingTestTransport(
      headers: [.contentType: "application/json", .setCookie: "sid=set-cookie-s3cret; HttpOnly"],
      body: #"{"access_token":"resp-t0ken","expires_in":3600,"scope":"read"}"#)
    let client = APIClient.logged(transport, LoggingInterceptor(logger: capture.logger()))

    struct Login: Encodable, Sendable {
      struct User: Encodable, Sendable {
        var name = "Ada"
        var password = "json-pa55"
        var profile = ["apiKey": "json-k3y", "city": "London"]
      }
      var user = User()
      var devices = [["id": "phone", "refresh_token": "json-refresh"], ["id": "tablet", "token": "array-t0ken"]]
      var secret = "json-s3cret"

      enum CodingKeys: String, CodingKey {
        case user, devices
        case secret = "Secret"
      }
    }
    let json = Endpoint<Data>.post("/login")
      .query(
        ["q": "shoes", "password": "query-pa55", "token": "query-t0ken", "api_key": "query-k3y"] as QueryParameters
      )
      .body(json: Login())
      .header(.authorization(bearer: "s3cr3t-bearer-token"))
      .header(.cookie, "session=cookie-s3cret")
      .header("X-API-Key", "header-k3y")
    _ = try await client.send(json)

    let form = Endpoint<Data>.post("/token")
      .body(
        form: [
          "username": "ada", "password": "form-pa55", "client_secret": "form-s3cret",
          "user": ["token": "form-t0ken"],
        ] as QueryParameters
      )
      .header(.authorization(username: "ada", password: "basic-pa55word"))
    _ = try await client.send(form)

    let text = capture.text
    for secret in Self.secrets {
      #expect(!text.contains(secret), "\(secret) was logged")
    }
    for visible in [
      "?q=shoes&password=<redacted>&token=<redacted>&api_key=<redacted> ", "London", "phone", "tablet", "username=ada",
      "expires_in", "Bearer <redacted>",
      "Basic <redacted>", "X-API-Key: <redacted>", "Set-Cookie: <redacted>", "Cookie: <redacted>", "read",
    ] {
      #expect(text.contains(visible), "\(visible) is missing")
    }
    #expect(capture.entries.filter { $0.message.hasPrefix("curl ") }.count == 2)
    #expect(transport.bodies.first.map { String(decoding: $0, as: UTF8.self).contains("json-pa55") } == true)
  }
}

@Suite struct LocationRedactionTests {
  @Test func queryValuesInLocationHeadersAreHidden() {
    let redactor = LogRedactor()
    let field = HTTPField(name: .location, value: "https://x.test/next?token=s3cret&page=2")
    let shown = redactor.value(of: field)
    #expect(!shown.contains("s3cret"))
    #expect(shown.contains("page=2"))
    #expect(redactor.value(of: HTTPField(name: .contentLocation, value: "/a?api_key=k1")) == "/a?api_key=<redacted>")
  }
}
