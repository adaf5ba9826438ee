import Foundation
import HTTPTypes

/// What a stub requires of a request, and how a request that does not match differs from it.
struct RequestMatcher: Sendable {
  struct QueryRequirement: Sendable {
    var name: String
    /// `nil`: present with any value.
    var value: String?
  }

  struct HeaderRequirement: Sendable {
    var name: String
    /// `nil`: present with any value.
    var value: String?
  }

  struct BodyRequirement: Sendable {
    var description: String
    var test: @Sendable (Data) -> Bool
  }

  /// One way a request differs from a stub; heavier differences make a stub a worse candidate.
  struct Difference: Sendable {
    var weight: Int
    var text: String
  }

  /// How a request compares with a stub.
  enum Evaluation: Sendable {
    case matched(pathParameters: [String: String])
    case differs([Difference])
  }

  var method: HTTPRequest.Method?
  var scheme: String?
  var authority: String?
  var path: PathPattern?
  var query: [QueryRequirement] = []
  var headers: [HeaderRequirement] = []
  var bodies: [BodyRequirement] = []

  /// A matcher for `method` and `path`, which may be a pattern, may carry a query (`/search?q=shoes`) and may be an
  /// absolute URL (`https://cdn.example.com/images/*`) to require a scheme and host too.
  init(method: HTTPRequest.Method?, path: String?) {
    self.method = method
    guard let path else { return }
    var rest = Substring(path)
    if let schemeEnd = rest.range(of: "://") {
      scheme = rest[..<schemeEnd.lowerBound].lowercased()
      rest = rest[schemeEnd.upperBound...]
      let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
      authority = String(rest[..<authorityEnd]).lowercased()
      rest = rest[authorityEnd...]
    }
    let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    self.path = PathPattern(String(parts.first ?? ""))
    if parts.count == 2 {
      query = RequestParts.queryItems(parts[1]).map { QueryRequirement(name: $0.name, value: $0.value) }
    }
  }

  /// Compares `request` with the requirements. `basePath` holds the decoded segments of the base URL's path: a
  /// relative pattern matches the path after them, or the whole path.
  func evaluate(_ request: HTTPRequest, body: Data?, basePath: [String]) -> Evaluation {
    var differences: [Difference] = []
    let parts = RequestParts(request)
    var parameters: [String: String] = [:]

    if let method, method != request.method {
      differences.append(Difference(weight: 3, text: "the method is \(request.method), the stub expects \(method)"))
    }
    if let scheme, scheme != parts.scheme {
      differences.append(Difference(weight: 3, text: "the scheme is \(parts.scheme), the stub expects \(scheme)"))
    }
    if let authority, authority != parts.authority {
      differences.append(Difference(weight: 3, text: "the host is \(parts.authority), the stub expects \(authority)"))
    }
    if let path {
      let segments = PathPattern.split(parts.path).map(\.percentDecoded)
      var candidates = [segments]
      if authority == nil, !basePath.isEmpty, segments.starts(with: basePath) {
        candidates.insert(Array(segments.dropFirst(basePath.count)), at: 0)
      }
      if let found = candidates.lazy.compactMap(path.match).first {
        parameters = found
      } else {
        differences.append(Difference(weight: 4, text: "the path \(parts.path) does not match \(path)"))
      }
    }
    for requirement in query {
      let values = parts.query.filter { $0.name == requirement.name }.map { $0.value ?? "" }
      if values.isEmpty {
        differences.append(Difference(weight: 1, text: "the query has no \(requirement.name)"))
      } else if let expected = requirement.value, !values.contains(expected) {
        let found = values.map { "\"\($0)\"" }.joined(separator: ", ")
        differences.append(
          Difference(weight: 1, text: "the query's \(requirement.name) is \(found), the stub expects \"\(expected)\""))
      }
    }
    for requirement in headers {
      let values = request.headerFields.filter { $0.name.canonicalName == requirement.name.lowercased() }.map(\.value)
      if values.isEmpty {
        differences.append(Difference(weight: 1, text: "the header \(requirement.name) is missing"))
      } else if let expected = requirement.value, !values.contains(expected) {
        let found = values.map { "\"\($0)\"" }.joined(separator: ", ")
        differences.append(
          Difference(weight: 1, text: "the header \(requirement.name) is \(found), the stub expects \"\(expected)\""))
      }
    }
    for requirement in bodies where !requirement.test(body ?? Data()) {
      differences.append(Difference(weight: 1, text: "the body does not match \(requirement.description)"))
    }
    return differences.isEmpty ? .matched(pathParameters: parameters) : .differs(differences)
  }

  /// `GET /users/:id?page=2 [X-API-Key: k] [body: …]`, for failure messages.
  var description: String {
    var text = method?.rawValue ?? "any method"
    var target = ""
    if let scheme, let authority { target = "\(scheme)://\(authority)" }
    target += path?.description ?? (authority == nil ? "any path" : "")
    if !query.isEmpty {
      let items = query.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }
      target += (target.contains("?") ? "&" : "?") + items.joined(separator: "&")
    }
    text += " " + target
    for header in headers {
      text += " [\(header.name)\(header.value.map { ": \($0)" } ?? "")]"
    }
    for body in bodies {
      text += " [body: \(body.description)]"
    }
    return text
  }
}
