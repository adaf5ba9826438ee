#if canImport(Hummingbird)
/// A blog post: `{"id","title","body"}`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct Post: Codable, Sendable, Equatable {
  /// Numeric id.
  var id: Int
  /// Title.
  var title: String
  /// Body text.
  var body: String
}
#endif
