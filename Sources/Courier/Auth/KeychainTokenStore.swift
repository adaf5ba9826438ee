#if canImport(Security)
import Foundation
import Security

/// Keeps credentials in the Keychain as a generic password (Apple platforms only).
///
/// ```swift
/// let store = KeychainTokenStore(service: "com.example.app", account: "api")
/// ```
public struct KeychainTokenStore: TokenStore {
  /// The Keychain service name.
  public let service: String
  /// The Keychain account name.
  public let account: String

  /// Creates a store for one service and account.
  public init(service: String, account: String = "default") {
    self.service = service
    self.account = account
  }

  private var query: [String: Any] {
    [
      kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
      kSecAttrAccount as String: account,
    ]
  }

  /// Reads the credentials; `nil` when there are none.
  public func load() throws -> AuthToken? {
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
  public func save(_ token: AuthToken) throws {
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
  public func clear() throws {
    let status = SecItemDelete(query as CFDictionary)
    guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.failure("delete", status) }
  }

  private static func failure(_ action: String, _ status: OSStatus) -> CourierError {
    CourierError(.transport, "The Keychain could not \(action) the credentials (OSStatus \(status))")
  }
}
#endif
