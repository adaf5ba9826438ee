#if canImport(Security)
import Foundation
import Security

extension TokenStore {
  /// Keeps credentials in the Keychain as a generic password, readable after first unlock (Apple platforms only).
  ///
  /// ```swift
  /// let store = TokenStore.keychain(service: "com.example.app", account: "api")
  /// ```
  ///
  /// - Parameters:
  ///   - service: The Keychain service name.
  ///   - account: The Keychain account name.
  public static func keychain(service: String, account: String = "default") -> TokenStore {
    let keychain = KeychainTokenStore(service: service, account: account)
    return TokenStore(
      load: { try keychain.load() },
      save: { try keychain.save($0) },
      clear: { try keychain.clear() })
  }
}

/// The Keychain item behind `TokenStore.keychain(service:account:)`.
struct KeychainTokenStore: Sendable {
  /// The Keychain service name.
  let service: String
  /// The Keychain account name.
  let account: String

  private var query: [String: Any] {
    [
      kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
      kSecAttrAccount as String: account,
    ]
  }

  /// Reads the credentials; `nil` when there are none.
  func load() throws -> AuthToken? {
    var query = self.query
    query[kSecReturnData as String] = true
    query[kSecMatchLimit as String] = kSecMatchLimitOne
    var item: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &item)
    if status == errSecItemNotFound { return nil }
    guard status == errSecSuccess, let data = item as? Data else { throw Self.failure("read", status) }
    return try JSONDecoder().decode(AuthToken.self, from: data)
  }

  /// Adds or replaces the credentials, readable after first unlock.
  func save(_ token: AuthToken) throws {
    let data = try JSONEncoder().encode(token)
    let attributes: [String: Any] = [
      kSecValueData as String: data, kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
    ]
    var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
    if status == errSecItemNotFound {
      status = SecItemAdd(query.merging(attributes) { $1 } as CFDictionary, nil)
    }
    guard status == errSecSuccess else { throw Self.failure("write", status) }
  }

  /// Deletes the credentials.
  func clear() throws {
    let status = SecItemDelete(query as CFDictionary)
    guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.failure("delete", status) }
  }

  private static func failure(_ action: String, _ status: OSStatus) -> CourierError {
    CourierError(.transport, "The Keychain could not \(action) the credentials (OSStatus \(status))")
  }
}
#endif
