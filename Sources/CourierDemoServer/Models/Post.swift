/// A blog post: `{"id","title","body"}`.
struct Post: Codable, Sendable, Equatable {
  /// Numeric id.
  var id: Int
  /// Title.
  var title: String
  /// Body text.
  var body: String
}
