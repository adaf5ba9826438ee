/// The response type for calls whose body does not matter: `204 No Content`, an empty `201`, a `DELETE`.
///
/// Decoding `EmptyBody` never fails and never reads the body (which stays available on ``APIResponse/data``).
///
/// ```swift
/// try await client.send(Endpoint<EmptyBody>.delete("/posts/1").expect(.noContent))
/// ```
public struct EmptyBody: Codable, Sendable, Hashable {
  /// Creates an empty value.
  public init() {}

  /// Decodes from anything, including nothing.
  public init(from decoder: any Decoder) throws {}

  /// Encodes nothing.
  public func encode(to encoder: any Encoder) throws {}
}
