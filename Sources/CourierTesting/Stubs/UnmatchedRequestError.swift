import Courier
import Foundation
import HTTPTypes

/// The failure of a request that no stub matches: the request, and the stubs that came closest with how they differ.
///
/// ``StubTransport`` throws it wrapped in a `CourierError` of kind `transport` (as its `underlyingError`, and with
/// the same text as its `detail`), so the test that made the call fails with a message like:
///
/// ```text
/// No stub matches POST https://api.example.test/v1/posts (body: {"title":"Hi"})
/// The closest stubs:
///   1. GET /posts — the method is POST, the stub expects GET
///   2. POST /posts/:id — the path /v1/posts does not match /posts/:id
/// ```
public struct UnmatchedRequestError: Error, Sendable, CustomStringConvertible {
  /// A stub that did not match, and why.
  public struct Candidate: Sendable {
    /// The stub's name or description.
    public var stub: String
    /// Each way the request differs from the stub, e.g. `the header X-API-Key is missing`.
    public var differences: [String]
  }

  /// The request that was not matched.
  public var request: RecordedRequest
  /// The closest stubs, closest first; at most three.
  public var candidates: [Candidate]
  /// How many stubs the transport had.
  public var stubCount: Int

  /// The full message: the request, then each close stub with its differences.
  public var description: String {
    var lines = ["No stub matches \(Self.describe(request))"]
    if stubCount == 0 {
      lines.append("The transport has no stubs; add one, e.g. StubTransport(.get(\"/path\").reply(.json(value))).")
      return lines.joined(separator: "\n")
    }
    lines.append(candidates.count == 1 ? "The closest stub:" : "The closest stubs:")
    for (index, candidate) in candidates.enumerated() {
      lines.append("  \(index + 1). \(candidate.stub) — \(candidate.differences.joined(separator: "; "))")
    }
    if stubCount > candidates.count {
      lines.append("  (\(stubCount - candidates.count) more differ in more ways)")
    }
    return lines.joined(separator: "\n")
  }

  /// `POST https://… (body: …)`, the body cut at 200 bytes.
  static func describe(_ request: RecordedRequest) -> String {
    let url = request.url?.absoluteString ?? "\(request.request.authority ?? "")\(request.request.path ?? "")"
    var text = "\(request.method) \(url)"
    if let body = request.body, !body.isEmpty {
      if let bodyText = String(data: body, encoding: .utf8) {
        text += " (body: \(bodyText.count > 200 ? bodyText.prefix(200) + "…" : bodyText))"
      } else {
        text += " (body: \(body.count) bytes)"
      }
    }
    return text
  }
}
