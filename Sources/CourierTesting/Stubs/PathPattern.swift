/// A path a stub matches: literal segments, `:name` parameters, `*` for any one segment and `**` for the rest.
///
/// `/users/:id` matches `/users/42` (with `id` = `42`), `/files/*` matches `/files/a.png` but not `/files/a/b.png`,
/// and `/files/**` matches both. Segments are compared after percent-decoding, so `/users/John Doe` matches a
/// request for `/users/John%20Doe`; an empty segment and a trailing slash are ignored.
struct PathPattern: Sendable, CustomStringConvertible {
  enum Segment: Sendable, Equatable {
    case literal(String)
    case parameter(String)
    case wildcard
    case rest
  }

  let segments: [Segment]
  let description: String

  init(_ text: String) {
    description = text
    segments = Self.split(text).map { segment in
      switch segment {
      case "*": .wildcard
      case "**": .rest
      case let parameter where parameter.hasPrefix(":") && parameter.count > 1:
        .parameter(String(parameter.dropFirst()))
      default: .literal(segment.percentDecoded)
      }
    }
  }

  /// The path parameters when `path` (percent-encoded, without a query) matches, else `nil`.
  func match(_ path: String) -> [String: String]? {
    match(Self.split(path).map(\.percentDecoded))
  }

  /// The path parameters when the decoded segments match, else `nil`.
  func match(_ path: [String]) -> [String: String]? {
    var parameters: [String: String] = [:]
    for (index, segment) in segments.enumerated() {
      if segment == .rest { return parameters }
      guard index < path.count else { return nil }
      switch segment {
      case .literal(let literal): guard literal == path[index] else { return nil }
      case .parameter(let name): parameters[name] = path[index]
      case .wildcard, .rest: break
      }
    }
    return segments.count == path.count ? parameters : nil
  }

  static func split(_ path: some StringProtocol) -> [Substring] {
    Substring(path).split(separator: "/")
  }
}
