import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@available(macOS 14, iOS 17, tvOS 17, *)
private struct Stamp: Codable, Sendable, Equatable {
  var at: Date
}

/// A model that declares its own date format.
@available(macOS 14, iOS 17, tvOS 17, *)
private struct Holiday: Codable, Sendable, Equatable, DateCodingStrategyProviding {
  var name: String
  var day: Date
  static var dateCodingStrategy: DateCodingStrategy { .formatted("yyyy-MM-dd") }
}

/// Date strategies at three levels: the client, the model, the request.
@Suite struct DateCodingTests {
  static let moment = Date(timeIntervalSince1970: 1_714_564_800)  // 2024-05-01T12:00:00Z

  @available(macOS 14, iOS 17, tvOS 17, *)
  func client(
    answering body: String,
    _ configure: (inout APIClient.Configuration) -> Void = { _ in }
  ) -> APIClient {
    .testing(stubs: [.get("/value").reply(.body(body))], configure)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func theClientStrategyAppliesToEveryCall() async throws {
    let millis = client(answering: #"{"at": 1714564800000}"#) { $0.dateCodingStrategy = .millisecondsSince1970 }
    #expect(try await millis.value(Endpoint<Stamp>.get("/value")).at == Self.moment)
    let seconds = client(answering: #"{"at": 1714564800}"#) { $0.dateCodingStrategy = .secondsSince1970 }
    #expect(try await seconds.value(Endpoint<Stamp>.get("/value")).at == Self.moment)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func iso8601AcceptsFractionalSecondsAndOffsets() async throws {
    for text in ["2024-05-01T12:00:00Z", "2024-05-01T12:00:00.000Z", "2024-05-01T14:00:00+02:00"] {
      let iso = client(answering: #"{"at": "\#(text)"}"#) { $0.dateCodingStrategy = .iso8601 }
      #expect(try await iso.value(Endpoint<Stamp>.get("/value")).at == Self.moment, "\(text)")
    }
    let fraction = client(answering: #"{"at": "2024-05-01T12:00:00.250Z"}"#) { $0.dateCodingStrategy = .iso8601 }
    #expect(try await fraction.value(Endpoint<Stamp>.get("/value")).at == Self.moment.addingTimeInterval(0.25))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func theModelStrategyWinsOverTheClientsAndTheRequestsOverBoth() async throws {
    let api = client(answering: #"[{"name": "Labour Day", "day": "2024-05-01"}]"#) {
      $0.dateCodingStrategy = .millisecondsSince1970
    }
    let holidays = try await api.value(Endpoint<[Holiday]>.get("/value"))
    let day = Date(timeIntervalSince1970: 1_714_521_600)  // 2024-05-01T00:00:00Z
    #expect(holidays == [Holiday(name: "Labour Day", day: day)])

    let perRequest = client(answering: #"{"name": "Labour Day", "day": 1714521600}"#)
    let holiday = try await perRequest.value(Endpoint<Holiday>.get("/value").dateCodingStrategy(.secondsSince1970))
    #expect(holiday.day == day)

    let wrong = await #expect(throws: CourierError.self) {
      try await perRequest.value(Endpoint<Holiday>.get("/value"))
    }
    #expect(wrong?.codingPath == "day", "without the request's strategy the model's format is expected")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func bodiesAreWrittenInTheChosenStrategy(_ transport: TransportKind) async throws {
    try await withDemoServer(transport, { $0.dateCodingStrategy = .millisecondsSince1970 }) { client, _ in
      let global = try await client.value(Endpoint<Echo>.post("/echo/stamp", body: Stamp(at: Self.moment)))
      #expect(global.body == #"{"at":1714564800000}"#)

      let perRequest = try await client.value(
        Endpoint<Echo>.post("/echo/stamp", body: Stamp(at: Self.moment)).dateCodingStrategy(.iso8601))
      #expect(perRequest.body == #"{"at":"2024-05-01T12:00:00Z"}"#)

      let fractional = try await client.value(
        Endpoint<Echo>.post("/echo/stamp", body: Stamp(at: Self.moment.addingTimeInterval(0.5)))
          .dateCodingStrategy(.iso8601WithFractionalSeconds))
      #expect(fractional.body == #"{"at":"2024-05-01T12:00:00.500Z"}"#)

      let model: Echo = try await client.request(
        endpoint: "/echo/holiday", method: .post, body: Holiday(name: "May Day", day: Self.moment))
      let sent = try JSONDecoder().decode([String: String].self, from: Data((model.body ?? "").utf8))
      #expect(sent == ["name": "May Day", "day": "2024-05-01"])
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func aGlobalStrategyReadsTheDemoAPIsDates(_ transport: TransportKind) async throws {
    try await withDemoServer(transport, { $0.dateCodingStrategy = .iso8601WithFractionalSeconds }) { client, _ in
      let tokens = try await client.value(Endpoint<Tokens>.post("/auth/login", body: Credentials()))
      let me = try await client.value(
        Endpoint<DemoUser>.get("/users/me").header(.authorization(bearer: tokens.accessToken)))
      #expect(me.createdAt == ISO8601DateFormatter().date(from: "2024-01-15T09:30:00Z"))
    }
  }
}
