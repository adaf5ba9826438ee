#if canImport(Hummingbird)
import Hummingbird

/// Reads path parameters captured by the router.
@available(macOS 14, iOS 17, tvOS 17, *)
enum PathParameter {
  /// The integer captured as `{name}`; 400 `invalid_parameter` when it is not an integer.
  static func int(_ name: String, in context: DemoContext) throws -> Int {
    let raw = context.parameters.get(name) ?? ""
    guard let value = Int(raw) else {
      throw APIError.invalidParameter(name, "Path parameter '\(name)' must be an integer, got '\(raw)'")
    }
    return value
  }

  /// Longest `{key}` the probe routes accept.
  static let maxKeyLength = 200

  /// The text captured as `{name}`, as it appears in the path (still percent-encoded); 400 `invalid_parameter`
  /// when it is longer than ``maxKeyLength``.
  static func key(_ name: String = "key", in context: DemoContext) throws -> String {
    let raw = context.parameters.get(name) ?? ""
    guard !raw.isEmpty, raw.count <= maxKeyLength else {
      throw APIError.invalidParameter(name, "Path parameter '\(name)' must be 1 to \(maxKeyLength) characters long")
    }
    return raw
  }
}
#endif
