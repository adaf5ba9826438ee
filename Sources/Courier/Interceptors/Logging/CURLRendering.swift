import Foundation
import HTTPTypes

/// Renders a request as a `curl` command line, with secrets redacted.
struct CURLRendering: Sendable {
  let redactor: LogRedactor

  /// What follows the headers in a command.
  enum Body {
    /// No body.
    case none
    /// The bytes to send, redacted before they are shown.
    case data(Data)
    /// A body that is not shown, with the reason, e.g. `<stream, 120 bytes>`.
    case omitted(String)
  }

  /// `curl -X POST 'https://…' -H 'Name: value' --data-binary '…'`, on one line.
  func command(for request: HTTPRequest, body: Body) -> String {
    var parts = ["curl"]
    parts += request.method == .head ? ["--head"] : ["-X", request.method.rawValue]
    parts.append(Self.quoted(redactor.url(of: request)))
    for field in request.headerFields {
      let value = redactor.value(of: field)
      // curl sends `Name;` as an empty header, while `Name:` would remove it.
      parts += ["-H", Self.quoted(value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName): \(value)")]
    }
    switch body {
    case .none:
      break
    case .data(let data) where data.isEmpty:
      break
    case .data(let data):
      guard let text = String(data: data, encoding: .utf8) else {
        parts.append("# body not shown: <binary, \(data.count) bytes>")
        break
      }
      let redacted = redactor.body(text, contentType: request.headerFields[.contentType])
      parts += ["--data-binary", Self.quoted(redacted)]
    case .omitted(let reason):
      parts.append("# body not shown: \(reason)")
    }
    return parts.joined(separator: " ")
  }

  /// `text` in single quotes for a POSIX shell: `it's` becomes `'it'\''s'`.
  static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}

extension LoggingInterceptor {
  /// A `curl` command that repeats `request` with `body`, with the same redaction as the log lines: hidden
  /// headers, query values and body fields show the configured placeholder.
  ///
  /// Every argument is single-quoted for a POSIX shell. A body that is not UTF-8 is left out with a trailing
  /// `# body not shown: <binary, N bytes>` comment. The body is never truncated here, unlike in the log.
  ///
  /// ```swift
  /// let logging = LoggingInterceptor(logger: logger)
  /// var request = HTTPRequest(method: .post, scheme: "https", authority: "api.example.com", path: "/v1/notes")
  /// request.headerFields[.contentType] = "application/json"
  /// print(logging.curlCommand(for: request, body: Data(#"{"text":"hi"}"#.utf8)))
  /// // curl -X POST 'https://api.example.com/v1/notes' -H 'Content-Type: application/json'
  /// //   --data-binary '{"text":"hi"}'   (on one line)
  /// ```
  public func curlCommand(for request: HTTPRequest, body: Data?) -> String {
    curl.command(for: request, body: body.map { .data($0) } ?? .none)
  }
}
