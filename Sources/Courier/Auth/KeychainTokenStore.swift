#if canImport(Security)
import Foundation
import Security

extension TokenStore {
  /// Keeps credentials in the Keychain as a generic password (Apple platforms only).
  ///
  /// The item lives in the data-protection keychain (`kSecUseDataProtectionKeychain`) on every Apple platform, so
  /// that on macOS, too, it honours `accessibility` and `accessGroup`; an item an earlier version left in macOS's
  /// legacy file keychain is moved there the first time it is read. On macOS this keychain needs a signed app with
  /// an application identifier: a command-line tool without entitlements fails with
  /// ``CourierError/Kind-swift.struct/keychain`` (`errSecMissingEntitlement`) and should use
  /// ``TokenStore/file(at:)``. Every Keychain failure is a ``CourierError/Kind-swift.struct/keychain`` error naming
  /// the `OSStatus`.
  ///
  /// ```swift
  /// let store = TokenStore.keychain(service: "com.example.app", accessGroup: "TEAMID.com.example.shared")
  /// ```
  ///
  /// - Parameters:
  ///   - service: The Keychain service name.
  ///   - account: The Keychain account name.
  ///   - accessGroup: The access group to share the credentials with app extensions and the team's other apps
  ///     (one of the app's `keychain-access-groups`, with its team prefix), or `nil` for the app's default group.
  ///   - accessibility: When the credentials can be read; ``KeychainAccessibility/afterFirstUnlock`` by default.
  public static func keychain(
    service: String,
    account: String = "default",
    accessGroup: String? = nil,
    accessibility: KeychainAccessibility = .afterFirstUnlock
  ) -> TokenStore {
    let keychain = KeychainTokenStore(
      item: KeychainItem(service: service, account: account, accessGroup: accessGroup, accessibility: accessibility))
    return TokenStore(
      load: { try keychain.load() },
      save: { try keychain.save($0) },
      clear: { try keychain.clear() })
  }
}

/// The `SecItem` calls behind `TokenStore.keychain(service:account:accessGroup:accessibility:)`; ``KeychainItem``
/// makes their queries and explains their failures.
struct KeychainTokenStore: Sendable {
  let item: KeychainItem

  /// Reads the credentials; `nil` when there are none.
  func load() throws -> AuthToken? {
    if let data = try read(item.query) { return try KeychainItem.token(from: data) }
    #if os(macOS)
    guard let data = (try? read(item.legacyQuery)) ?? nil else { return nil }
    let token = try KeychainItem.token(from: data)
    try save(token)
    _ = SecItemDelete(Self.dictionary(item.legacyQuery))
    return token
    #else
    return nil
    #endif
  }

  /// Adds or replaces the credentials.
  func save(_ token: AuthToken) throws {
    let data = try JSONEncoder().encode(token)
    var status = SecItemUpdate(Self.dictionary(item.query), Self.dictionary(item.attributes(data)))
    if status == errSecItemNotFound { status = SecItemAdd(Self.dictionary(item.adding(data)), nil) }
    guard status == errSecSuccess else { throw KeychainItem.failure("save", status: status) }
  }

  /// Deletes the credentials (on macOS, from the legacy file keychain too).
  func clear() throws {
    let status = SecItemDelete(Self.dictionary(item.query))
    #if os(macOS)
    _ = SecItemDelete(Self.dictionary(item.legacyQuery))
    #endif
    guard status == errSecSuccess || status == errSecItemNotFound else {
      throw KeychainItem.failure("delete", status: status)
    }
  }

  private func read(_ query: KeychainItem.Query) throws -> Data? {
    var result: CFTypeRef?
    let status = SecItemCopyMatching(Self.dictionary(KeychainItem.reading(query)), &result)
    if status == errSecItemNotFound { return nil }
    guard status == errSecSuccess, let data = result as? Data else {
      throw KeychainItem.failure("read", status: status)
    }
    return data
  }

  /// `query` with the Security framework's keys and values.
  private static func dictionary(_ query: KeychainItem.Query) -> CFDictionary {
    var dictionary: [CFString: Any] = [:]
    for (key, value) in query {
      dictionary[constant(key)] = object(value)
    }
    return dictionary as CFDictionary
  }

  private static func constant(_ key: KeychainItem.Key) -> CFString {
    switch key {
    case .itemClass: kSecClass
    case .service: kSecAttrService
    case .account: kSecAttrAccount
    case .accessGroup: kSecAttrAccessGroup
    case .dataProtectionKeychain: kSecUseDataProtectionKeychain
    case .accessible: kSecAttrAccessible
    case .valueData: kSecValueData
    case .returnData: kSecReturnData
    case .matchLimit: kSecMatchLimit
    }
  }

  private static func object(_ value: KeychainItem.Value) -> Any {
    switch value {
    case .genericPassword: kSecClassGenericPassword
    case .matchOne: kSecMatchLimitOne
    case .string(let string): string
    case .bool(let bool): bool
    case .data(let data): data
    case .accessibility(let accessibility):
      switch accessibility.base {
      case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
      case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
      case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
      case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
      case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
      }
    }
  }
}
#endif
