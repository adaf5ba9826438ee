import Hummingbird

/// Reads path parameters captured by the router.
enum PathParameter {
  /// The integer captured as `{name}`; 400 `invalid_parameter` when it is not an integer.
  static func int(_ name: String, in context: DemoContext) throws -> Int {
    let raw = context.parameters.get(name) ?? ""
    guard let value = Int(raw) else {
      throw APIError.invalidParameter(name, "Path parameter '\(name)' must be an integer, got '\(raw)'")
    }
    return value
  }
}
