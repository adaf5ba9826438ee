import Foundation

/// JSON compared by meaning rather than by bytes.
enum JSONText {
  /// `data` re-serialized with sorted keys and no whitespace, or `nil` when it is not JSON.
  static func canonical(_ data: Data) -> Data? {
    guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
    return try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
  }
}
