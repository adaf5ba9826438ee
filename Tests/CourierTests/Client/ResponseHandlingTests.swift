import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite struct ResponseHandlingTests {
  struct Item: Codable, Sendable, Equatable {
    var id: Int
    var price: Double
  }

  struct Page: Codable, Sendable {
    var items: [Item]
  }

  struct MessageBody: ServerErrorResponse {
    var message: String
    var details: [String]
    var errorMessage: String? { message }
  }

  @Test func decodesValueAndKeepsRawBytesAndHeads() async throws {
    let transport = StubTransport(
      .any.reply(.body(#"{"id":1,"price":9.5}"#, headerFields: [.contentType: "application/json"])))
    let response = try await APIClient.stubbed(transport).send(Endpoint<Item>.get("/items/1"))
    #expect(response.value == Item(id: 1, price: 9.5))
    #expect(response.data == Data(#"{"id":1,"price":9.5}"#.utf8))
    #expect(response.status == .ok)
    #expect(response.headerFields[.contentType] == "application/json")
    #expect(response.request.method == .get)
    #expect(response.url?.absoluteString == "https://api.example.com/v1/items/1")
  }

  @Test func emptyDataAndStringResponses() async throws {
    let client = APIClient.stubbed(StubTransport(.any.reply(.body("Grüße 👋"))))
    #expect(try await client.value(Endpoint<String>.get("/t")) == "Grüße 👋")
    #expect(try await client.value(Endpoint<Data>.get("/t")) == Data("Grüße 👋".utf8))
    #expect(try await client.value(Endpoint<EmptyBody>.get("/t")) == EmptyBody())
    let noContent = APIClient.stubbed(StubTransport(.any.reply(.status(.noContent))))
    #expect(try await noContent.send(Endpoint<EmptyBody>.delete("/t")).status == .noContent)
  }

  @Test func latin1TextIsDecodedByItsCharset() async throws {
    let transport = StubTransport(
      .any.reply(.data(Data([0x63, 0x61, 0x66, 0xE9]), headerFields: [.contentType: "text/plain; charset=ISO-8859-1"])))
    #expect(try await APIClient.stubbed(transport).value(Endpoint<String>.get("/t")) == "café")
  }

  @Test func statusOutsideTheExpectedSetThrowsWithBodyAndServerError() async {
    let body = #"{"message":"Invalid input","details":["name is empty"]}"#
    let client = APIClient.stubbed(StubTransport(.any.reply(.body(body, status: .unprocessableContent)))) {
      $0.serverErrorType = MessageBody.self
    }
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<Item>.post("/items")) }
    #expect(error?.kind == .unacceptableStatus)
    #expect(error?.status == .unprocessableContent)
    #expect(error?.body == Data(body.utf8))
    #expect(error?.serverError(as: MessageBody.self)?.details == ["name is empty"])
    #expect(error?.userMessage == "Invalid input")
    #expect(error?.request?.method == .post)
    #expect(error?.isRetryable == false)
  }

  @Test func expectNarrowsTheAcceptedStatuses() async throws {
    let client = APIClient.stubbed(StubTransport(.any.reply(.status(.ok))))
    let error = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.post("/a").expect(.created))
    }
    #expect(error?.kind == .unacceptableStatus)
    let redirect = APIClient.stubbed(StubTransport(.any.reply(.status(.notModified))))
    #expect(try await redirect.send(Endpoint<EmptyBody>.get("/a").expect(.ok, .notModified)).status == .notModified)
    #expect(try await redirect.send(Endpoint<EmptyBody>.get("/a").expectAnyStatus()).status == .notModified)
    #expect(try await redirect.send(Endpoint<EmptyBody>.get("/a").expect(200..<400)).status == .notModified)
  }

  @Test func customMessageWinsOverServerMessageAndDefault() async {
    let client = APIClient.stubbed(
      StubTransport(.any.reply(.body(#"{"message":"nope","details":[]}"#, status: .notFound)))
    ) {
      $0.serverErrorType = MessageBody.self
    }
    let custom = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<Item>.get("/a").message(for: .notFound, "User not found"))
    }
    #expect(custom?.userMessage == "User not found")
    #expect(custom?.localizedDescription == "User not found")
    let server = await #expect(throws: CourierError.self) { try await client.send(Endpoint<Item>.get("/a")) }
    #expect(server?.userMessage == "nope")
    let plain = APIClient.stubbed(StubTransport(.any.reply(.body("<html>", status: .notFound))))
    let fallback = await #expect(throws: CourierError.self) { try await plain.send(Endpoint<Item>.get("/a")) }
    #expect(fallback?.userMessage == "The requested item could not be found.")
    #expect(fallback?.serverError == nil)
  }

  @Test(arguments: [408, 429, 500, 502, 503, 504])
  func retryableStatuses(_ code: Int) async {
    let client = APIClient.stubbed(StubTransport(.any.reply(.status(HTTPResponse.Status(code: code)))))
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/a")) }
    #expect(error?.isRetryable == true)
  }

  @Test(arguments: [400, 401, 403, 404, 409, 422, 501])
  func nonRetryableStatuses(_ code: Int) async {
    let client = APIClient.stubbed(StubTransport(.any.reply(.status(HTTPResponse.Status(code: code)))))
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/a")) }
    #expect(error?.isRetryable == false)
  }

  @Test func decodingFailureKeepsBodyAndCodingPath() async {
    let body = #"{"items":[{"id":1,"price":2},{"id":2,"price":"free"}]}"#
    let client = APIClient.stubbed(StubTransport(.any.reply(.body(body))))
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<Page>.get("/a")) }
    #expect(error?.kind == .decoding)
    #expect(error?.codingPath == "items[1].price")
    #expect(error?.body == Data(body.utf8))
    #expect(error?.response?.status == .ok)
    #expect(error?.underlyingError is DecodingError)
    #expect(error?.detail.contains("items[1].price") == true)
  }

  @Test func missingKeyNamesTheKey() async {
    let client = APIClient.stubbed(StubTransport(.any.reply(.body(#"{"items":[{"id":1}]}"#))))
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<Page>.get("/a")) }
    #expect(error?.codingPath == "items[0].price")
  }

  @Test func emptyBodyForADecodableValueSaysSo() async {
    let client = APIClient.stubbed(StubTransport(.any.reply(.status(.noContent))))
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<Item>.get("/a")) }
    #expect(error?.kind == .decoding)
    #expect(error?.detail.contains("Endpoint<EmptyBody>") == true)
  }

  @Test func customDecodeClosure() async throws {
    let client = APIClient.stubbed(StubTransport(.any.reply(.body("1,2,3"))))
    let numbers = try await client.value(
      Endpoint<[Int]>.get("/csv").decode { data, _, _ in
        String(decoding: data, as: UTF8.self).split(separator: ",").compactMap { Int($0) }
      })
    #expect(numbers == [1, 2, 3])
  }

  @Test func perEndpointDecoderIsUsed() async throws {
    struct Stamp: Decodable, Sendable { var at: Date }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let client = APIClient.stubbed(StubTransport(.any.reply(.body(#"{"at":86400}"#))))
    #expect(try await client.value(Endpoint<Stamp>.get("/a").decoder(decoder)).at == Date(timeIntervalSince1970: 86400))
    let iso = APIClient.stubbed(StubTransport(.any.reply(.body(#"{"at":"1970-01-02T00:00:00Z"}"#))))
    #expect(try await iso.value(Endpoint<Stamp>.get("/a")).at == Date(timeIntervalSince1970: 86400))
  }

  @Test func transportErrorsAreClassified() async {
    let cases: [(URLError.Code, CourierError.Kind)] = [
      (.timedOut, .timeout), (.notConnectedToInternet, .noConnection), (.cannotConnectToHost, .noConnection),
      (.networkConnectionLost, .connectionLost), (.cancelled, .cancelled), (.secureConnectionFailed, .tls),
      (.badServerResponse, .transport),
    ]
    for (code, kind) in cases {
      let client = APIClient.stubbed(StubTransport(.any.reply(.urlError(code))))
      let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/a")) }
      #expect(error?.kind == kind, "\(code)")
      #expect(error?.request != nil)
      #expect(error?.underlyingError is URLError)
    }
  }

  @Test func unknownTransportErrorsAreWrappedAndCancellationErrorIsCancellation() async {
    struct Weird: Error {}
    let weird = APIClient.stubbed(StubTransport(.any.reply(.error(Weird()))))
    let error = await #expect(throws: CourierError.self) { try await weird.send(Endpoint<EmptyBody>.get("/a")) }
    #expect(error?.kind == .transport)
    #expect(error?.underlyingError is Weird)
    let cancelled = APIClient.stubbed(StubTransport(.any.reply(.error(CancellationError()))))
    let cancellation = await #expect(throws: CourierError.self) {
      try await cancelled.send(Endpoint<EmptyBody>.get("/a"))
    }
    #expect(cancellation?.isCancellation == true)
    #expect(cancellation?.isRetryable == false)
  }

  @Test func cancellingTheTaskSurfacesAsCancellationEvenWhenTheTransportSaysOtherwise() async {
    struct Weird: Error {}
    let client = APIClient.stubbed(
      StubTransport(
        .any.reply { _ in
          try? await Task.sleep(for: .milliseconds(10000))
          throw Weird()
        }))
    let task = Task { try await client.send(Endpoint<EmptyBody>.get("/a")) }
    try? await Task.sleep(for: .milliseconds(50))
    task.cancel()
    let error = await #expect(throws: CourierError.self) { try await task.value }
    #expect(error?.isCancellation == true)
  }

  @Test func errorDescriptionsAreUseful() async {
    let client = APIClient.stubbed(StubTransport(.any.reply(.body(#"{"oops":true}"#, status: .internalServerError))))
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/boom")) }
    let text = error.map { String(describing: $0) } ?? ""
    #expect(text.contains("unacceptableStatus"))
    #expect(text.contains("GET https://api.example.com/v1/boom"))
    #expect(text.contains("500"))
    #expect(error.map { String(reflecting: $0) }?.contains(#"{"oops":true}"#) == true)
  }
}

@Suite struct EndpointConvertibleTests {
  enum MovieAPI: EndpointConvertible {
    case popular(page: Int)
    case rate(id: Int, stars: Int)
    case poster(id: Int)

    var baseURL: URL? {
      if case .poster = self { return URL(string: "https://images.example.com") }
      return nil
    }
    var path: String {
      switch self {
      case .popular: "/movies/popular"
      case .rate(let id, _): "/movies/\(id)/rating"
      case .poster(let id): "/posters/\(id).jpg"
      }
    }
    var method: HTTPRequest.Method {
      if case .rate = self { .post } else { .get }
    }
    var query: QueryParameters {
      if case .popular(let page) = self { ["page": .int(Int64(page))] } else { [:] }
    }
    var body: Payload? {
      if case .rate(_, let stars) = self { .json(["value": stars]) } else { nil }
    }
    var headers: [HTTPHeader] { [.init("X-API-Key", "k")] }
  }

  @Test func enumCasesDescribeEveryPartOfTheRequest() async throws {
    let transport = StubTransport(.any.reply(.body("{}")))
    let client = APIClient.stubbed(transport)
    try await client.send(MovieAPI.popular(page: 2), as: EmptyBody.self)
    try await client.send(MovieAPI.rate(id: 7, stars: 4), as: EmptyBody.self)
    try await client.send(MovieAPI.poster(id: 7), as: Data.self)
    let requests = transport.requests
    #expect(requests[0].url?.absoluteString == "https://api.example.com/v1/movies/popular?page=2")
    #expect(requests[1].method == .post)
    #expect(requests[1].url?.absoluteString == "https://api.example.com/v1/movies/7/rating")
    #expect(transport.requests[1].body == Data(#"{"value":4}"#.utf8))
    #expect(requests[2].url?.absoluteString == "https://images.example.com/posters/7.jpg")
    #expect(requests.allSatisfy { $0.headerFields[HTTPField.Name("X-API-Key")!] == "k" })
  }
}

@Suite struct StatusPhraseTests {
  @Test func missingReasonPhrasesComeFromTheRegistry() {
    #expect(HTTPResponse.Status(code: 204, reasonPhrase: "").phrase == "No Content")
    #expect(HTTPResponse.Status(code: 418, reasonPhrase: "").phrase == "")
    #expect(HTTPResponse.Status(code: 200, reasonPhrase: "Fine").phrase == "Fine")
    #expect(HTTPResponse.Status.standardPhrase(for: 429) == "Too Many Requests")
  }
}
