#if canImport(Hummingbird)
import Hummingbird

/// The method/pattern pairs the router knows, used to tell 405 from 404.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RouteTable: Sendable {
  private let entries: [(method: HTTPRequest.Method, segments: [Substring])]

  /// Creates a table from the registered routes.
  init(_ routes: [Route]) {
    entries = routes.map { ($0.method, Self.segments($0.pattern)) }
  }

  /// The methods registered for patterns matching `path`, in registration order (plus `HEAD` wherever `GET`
  /// is registered, as the router generates those).
  func allowedMethods(for path: some StringProtocol) -> [HTTPRequest.Method] {
    let requested = Self.segments(path)
    var methods: [HTTPRequest.Method] = []
    for entry in entries where Self.matches(pattern: entry.segments, path: requested) {
      for method in entry.method == .get ? [.get, .head] : [entry.method] where !methods.contains(method) {
        methods.append(method)
      }
    }
    return methods
  }

  private static func segments(_ path: some StringProtocol) -> [Substring] {
    Substring(path).split(separator: "/")
  }

  private static func matches(pattern: [Substring], path: [Substring]) -> Bool {
    for (index, element) in pattern.enumerated() {
      if element == "**" {
        return true
      }
      guard index < path.count else { return false }
      if !(element.hasPrefix("{") && element.hasSuffix("}")) && element != path[index] {
        return false
      }
    }
    return pattern.count == path.count
  }
}
#endif
