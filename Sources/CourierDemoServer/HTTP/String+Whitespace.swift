#if canImport(Hummingbird)
@available(macOS 14, iOS 17, tvOS 17, *)
extension String {
  /// The text without leading and trailing spaces and tabs.
  func trimmingWhitespace() -> String {
    let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
#endif
