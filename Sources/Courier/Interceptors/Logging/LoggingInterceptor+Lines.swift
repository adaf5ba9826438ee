import Foundation
import HTTPTypes
import Logging

/// The method and redacted URL that every line of an attempt names.
struct LogRequestLine: Sendable {
  let method: String
  let url: String

  var description: String { "\(method) \(url)" }
}

extension LoggingInterceptor {
  func logRequest(
    _ request: HTTPRequest,
    body: BodyStream?,
    line: LogRequestLine,
    context: CallContext,
    logger: Logger
  ) {
    logger.log(
      level: requestLevel,
      "→ \(line.description) (call \(context.callID), attempt \(context.attempt))",
      metadata: ["method": "\(line.method)", "url": "\(line.url)"])

    if logger.logLevel <= bodyLevel {
      logHeaders(request.headerFields, arrow: "→", logger: logger)
      if context[LoggedBodiesKey.self],
        let text = bodies.text(for: body, contentType: request.headerFields[.contentType])
      {
        logger.log(level: bodyLevel, "→ body\(Self.size(of: body)): \(text)")
      }
    }

    if let curlLevel = self.curlLevel, logger.logLevel <= curlLevel {
      logger.log(level: curlLevel, "\(curl.command(for: request, body: curlBody(body, context: context)))")
    }
  }

  func logResponse(
    _ response: HTTPResponse,
    body: BodyStream,
    line: LogRequestLine,
    milliseconds: Int,
    context: CallContext,
    logger: Logger
  ) {
    let status = "\(response.status.code) \(response.status.phrase)"
    var size = "streamed"
    var metadata: Logger.Metadata = ["status": "\(response.status.code)", "durationMs": "\(milliseconds)"]
    if let bytes = Self.byteCount(of: body) {
      size = "\(bytes) bytes"
      metadata["bytes"] = "\(bytes)"
    }
    logger.log(
      level: responseLevel, "← \(status) \(line.description) \(milliseconds) ms, \(size)",
      metadata: metadata)

    guard logger.logLevel <= bodyLevel else { return }
    logHeaders(response.headerFields, arrow: "←", logger: logger)
    if context[LoggedBodiesKey.self],
      let text = bodies.text(for: body, contentType: response.headerFields[.contentType])
    {
      logger.log(level: bodyLevel, "← body\(Self.size(of: body)): \(text)")
    }
  }

  func logFailure(_ error: any Error, request: HTTPRequest, line: LogRequestLine, milliseconds: Int, logger: Logger) {
    guard logger.logLevel <= errorLevel else { return }
    var failure = CourierError(transportFailure: error, request: request)
    if let failedRequest = failure.request, let path = failedRequest.path {
      failure.request?.path = redactor.pathAndQuery(path)
      failure.request?.authority = failedRequest.authority.map(redactor.authority)
    }
    let secrets = redactor.secrets(in: request) + (failure.request.map(redactor.secrets(in:)) ?? [])
    let description = redactor.scrub(failure.description, removing: secrets)
    logger.log(
      level: errorLevel, "✕ \(line.description) failed after \(milliseconds) ms: \(description)",
      metadata: ["error": "\(failure.kind)", "durationMs": "\(milliseconds)"])
  }

  /// One line listing the fields, each on its own indented row, with hidden values redacted.
  private func logHeaders(_ fields: HTTPFields, arrow: String, logger: Logger) {
    guard !fields.isEmpty else { return }
    let rows = fields.map { "\n  \($0.name.rawName): \(redactor.value(of: $0))" }
    logger.log(level: bodyLevel, "\(arrow) headers\(rows.joined())")
  }

  /// The body the logged cURL command shows: buffered bodies within the limit, when the endpoint allows it.
  private func curlBody(_ body: BodyStream?, context: CallContext) -> CURLRendering.Body {
    guard let body else { return .none }
    guard context[LoggedBodiesKey.self] else {
      return body.bufferedData?.isEmpty == true ? .none : .omitted("<not logged for this endpoint>")
    }
    guard let data = body.bufferedData else { return .omitted(LogBodyRendering.streamDescription(body)) }
    guard data.count <= maxBodyBytes else { return .omitted("<\(data.count) bytes>") }
    return .data(data)
  }

  /// The size of a body when known: its bytes when buffered, its declared length when streamed.
  static func byteCount(of body: BodyStream) -> Int64? {
    if let data = body.bufferedData { return Int64(data.count) }
    return body.length
  }

  /// ` (N bytes)` for a buffered body; a streamed body's description already says its size.
  private static func size(of body: BodyStream?) -> String {
    guard let data = body?.bufferedData else { return "" }
    return " (\(data.count) bytes)"
  }
}
