import CourierTestSupport
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Courier

@Suite(.hangGuard) struct LoggingInterceptorTests {
  static let request = HTTPRequest(
    method: .get, scheme: "https", authority: "api.example.com", path: "/v1/search?q=shoes&page=2",
    headerFields: [.accept: "application/json"])

  static func answering(
    _ status: HTTPResponse.Status = .ok,
    body: String = #"{"id":1}"#,
    delay: Duration = .zero
  ) -> InterceptorNext {
    InterceptorNext { _, _, _ in
      if delay > .zero { try await Task.sleep(for: delay) }
      return (
        HTTPResponse(status: status, headerFields: [.contentType: "application/json"]), BodyStream(Data(body.utf8))
      )
    }
  }

  @Test func logsRequestAndResponseLinesAtTheirLevels() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger())
    let context = CallContext(attempt: 2, callID: 7)
    _ = try await logging.intercept(Self.request, body: nil, context: context, next: Self.answering())

    let requestLine = try #require(capture.entry(startingWith: "→ GET"))
    #expect(requestLine.message == "→ GET https://api.example.com/v1/search?q=shoes&page=2 (call 7, attempt 2)")
    #expect(requestLine.level == .info)
    #expect(requestLine.metadata["callID"] == "7")
    #expect(requestLine.metadata["attempt"] == "2")
    #expect(requestLine.metadata["method"] == "GET")

    let responseLine = try #require(capture.entry(startingWith: "← 200"))
    #expect(responseLine.level == .info)
    #expect(responseLine.message.hasPrefix("← 200 OK GET https://api.example.com/v1/search?q=shoes&page=2 "))
    #expect(responseLine.message.hasSuffix(" ms, 8 bytes"))
    #expect(responseLine.metadata["status"] == "200")
    #expect(responseLine.metadata["bytes"] == "8")
    #expect(responseLine.metadata["callID"] == "7")

    #expect(capture.entry(startingWith: "→ headers")?.level == .debug)
    #expect(capture.entry(startingWith: "→ headers")?.message == "→ headers\n  Accept: application/json")
    #expect(capture.entry(startingWith: "← body")?.message == #"← body (8 bytes): {"id":1}"#)
    #expect(capture.entry(startingWith: "← body")?.level == .debug)
    #expect(capture.entry(startingWith: "curl ")?.level == .debug)
  }

  @Test func durationIsMeasuredAroundNext() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger())
    _ = try await logging.intercept(
      Self.request, body: nil, context: CallContext(), next: Self.answering(delay: .milliseconds(60)))
    let line = try #require(capture.entry(startingWith: "← 200"))
    let milliseconds = try #require(line.metadata["durationMs"].flatMap { Int($0) })
    #expect(milliseconds >= 50)
    #expect(line.message.contains(" \(milliseconds) ms, "))
  }

  @Test func configuredLevelsAreUsedAndNilCurlLevelLogsNoCommand() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger()) {
      $0.requestLevel = .notice
      $0.responseLevel = .warning
      $0.bodyLevel = .trace
      $0.curlLevel = nil
    }
    _ = try await logging.intercept(Self.request, body: nil, context: CallContext(), next: Self.answering())
    #expect(capture.entry(startingWith: "→ GET")?.level == .notice)
    #expect(capture.entry(startingWith: "← 200")?.level == .warning)
    #expect(capture.entry(startingWith: "→ headers")?.level == .trace)
    #expect(capture.entry(startingWith: "← body")?.level == .trace)
    #expect(capture.entry(startingWith: "curl") == nil)
  }

  @Test func loggerLevelAboveDebugKeepsOnlyTheSummaryLines() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger(level: .info))
    _ = try await logging.intercept(Self.request, body: nil, context: CallContext(), next: Self.answering())
    #expect(capture.messages.count == 2)
    #expect(capture.messages.first?.hasPrefix("→ GET") == true)
    #expect(capture.messages.last?.hasPrefix("← 200 OK") == true)
  }

  @Test func unloggedCallsLogNothing() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger())
    let unlogged = Endpoint<EmptyBody>.get("/").logging(false).attributes
    let (response, _) = try await logging.intercept(
      Self.request, body: BodyStream(Data("x".utf8)), context: CallContext(attributes: unlogged),
      next: Self.answering(.internalServerError))
    #expect(response.status == .internalServerError)
    let failing = InterceptorNext { _, _, _ in throw CourierError(.timeout, "timed out") }
    await #expect(throws: CourierError.self) {
      _ = try await logging.intercept(
        Self.request, body: nil, context: CallContext(attributes: unlogged), next: failing)
    }
    #expect(capture.entries.isEmpty)
  }

  @Test func thrownCourierErrorIsLoggedAtErrorLevelAndRethrown() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger())
    let failure = CourierError(.noConnection, "The host is unreachable", request: Self.request)
    let failing = InterceptorNext { _, _, _ in throw failure }
    let thrown = await #expect(throws: CourierError.self) {
      _ = try await logging.intercept(Self.request, body: nil, context: CallContext(callID: 3), next: failing)
    }
    #expect(thrown?.kind == .noConnection)
    let line = try #require(capture.entry(startingWith: "✕"))
    #expect(line.level == .error)
    #expect(line.message.hasPrefix("✕ GET https://api.example.com/v1/search?q=shoes&page=2 failed after "))
    #expect(line.message.hasSuffix(" ms: \(failure.description)"))
    #expect(line.metadata["error"] == "noConnection")
    #expect(line.metadata["callID"] == "3")
    #expect(capture.entry(startingWith: "←") == nil)
  }

  @Test func aLoggerAboveEveryCallLevelWritesOnlyFailures() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger(level: .notice))
    #expect(!logging.logsSuccess)
    _ = try await logging.intercept(Self.request, body: nil, context: CallContext(callID: 4), next: Self.answering())
    #expect(capture.entries.isEmpty)

    let failing = InterceptorNext { _, _, _ in throw CourierError(.timeout, "Too slow", request: Self.request) }
    await #expect(throws: CourierError.self) {
      _ = try await logging.intercept(
        Self.request, body: nil, context: CallContext(attempt: 2, callID: 5), next: failing)
    }
    let line = try #require(capture.entry(startingWith: "✕ GET https://api.example.com/v1/search?q=shoes&page=2"))
    #expect(line.level == .error)
    #expect(line.metadata["callID"] == "5")
    #expect(line.metadata["attempt"] == "2")
    #expect(capture.entries.count == 1)

    let silent = LoggingInterceptor(logger: capture.logger(level: .critical))
    await #expect(throws: CourierError.self) {
      _ = try await silent.intercept(Self.request, body: nil, context: CallContext(), next: failing)
    }
    #expect(capture.entries.count == 1, "an error level below the logger's writes nothing")
  }

  @Test func otherErrorsAreDescribedAsCourierErrorsButRethrownUnchanged() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger()) { $0.errorLevel = .critical }
    let failing = InterceptorNext { _, _, _ in throw URLError(.timedOut) }
    await #expect(throws: URLError.self) {
      _ = try await logging.intercept(Self.request, body: nil, context: CallContext(), next: failing)
    }
    let line = try #require(capture.entry(startingWith: "✕"))
    #expect(line.level == .critical)
    #expect(line.message.contains("CourierError.timeout"))
    #expect(line.metadata["error"] == "timeout")
  }

  @Test func errorLineHidesSecretsInTheFailedRequest() async throws {
    let capture = LogCapture()
    let logging = LoggingInterceptor(logger: capture.logger())
    var request = Self.request
    request.path = "/v1/items?token=err-t0ken-value&q=shoes"
    request.headerFields[.authorization] = "Bearer err-bearer-value"
    let failing = InterceptorNext { request, _, _ in
      throw CourierError(.transport, "failed with token err-t0ken-value and err-bearer-value", request: request)
    }
    await #expect(throws: CourierError.self) {
      _ = try await logging.intercept(request, body: nil, context: CallContext(), next: failing)
    }
    let line = try #require(capture.entry(startingWith: "✕"))
    #expect(line.message.contains("token=<redacted>&q=shoes"))
    #expect(!capture.text.contains("err-t0ken-value"))
    #expect(!capture.text.contains("err-bearer-value"))
  }
}
