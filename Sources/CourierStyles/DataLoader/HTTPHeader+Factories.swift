import Courier

extension HTTPHeader {
  /// `Authorization: Bearer <token>`, spelled as DataLoader-style code spells it.
  ///
  /// ```swift
  /// let me: User = try await client.dataRequest(url: meURL, headers: [.authorization(bearerToken: token)])
  /// ```
  public static func authorization(bearerToken token: String) -> HTTPHeader {
    .authorization(bearer: token)
  }
}
