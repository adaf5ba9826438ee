import Foundation

/// The Keychain item behind `TokenStore.keychain(service:account:accessGroup:accessibility:)`, as plain values: the
/// queries the `SecItem` functions take, and what their `OSStatus` results mean. Made on every platform, so that it
/// is tested everywhere; the Apple glue (`KeychainTokenStore`) turns a ``Query`` into a `CFDictionary`.
///
/// The item is a generic password in the data-protection keychain (`kSecUseDataProtectionKeychain`), so that on
/// macOS it honours its accessibility and access group as on iOS (the legacy file keychain does neither).
struct KeychainItem: Sendable, Hashable {
  /// The service name (`kSecAttrService`).
  let service: String
  /// The account name (`kSecAttrAccount`).
  let account: String
  /// The access group shared with app extensions and other apps of the team (`kSecAttrAccessGroup`), or `nil` for
  /// the app's default group.
  let accessGroup: String?
  /// When the item can be read (`kSecAttrAccessible`).
  let accessibility: TokenStore.KeychainAccessibility

  /// A key of a query, named as its Security constant.
  enum Key: String, Sendable, Hashable, CaseIterable {
    case itemClass = "kSecClass"
    case service = "kSecAttrService"
    case account = "kSecAttrAccount"
    case accessGroup = "kSecAttrAccessGroup"
    case dataProtectionKeychain = "kSecUseDataProtectionKeychain"
    case accessible = "kSecAttrAccessible"
    case valueData = "kSecValueData"
    case returnData = "kSecReturnData"
    case matchLimit = "kSecMatchLimit"
  }

  /// A value of a query.
  enum Value: Sendable, Hashable {
    /// `kSecClassGenericPassword`.
    case genericPassword
    /// `kSecMatchLimitOne`.
    case matchOne
    case string(String)
    case bool(Bool)
    case data(Data)
    case accessibility(TokenStore.KeychainAccessibility)
  }

  /// A query or an attribute set of the `SecItem` functions.
  typealias Query = [Key: Value]

  /// What identifies the item, in the data-protection keychain (for `SecItemUpdate` and `SecItemDelete`).
  var query: Query {
    var query: Query = [
      .itemClass: .genericPassword, .service: .string(service), .account: .string(account),
      .dataProtectionKeychain: .bool(true),
    ]
    if let accessGroup { query[.accessGroup] = .string(accessGroup) }
    return query
  }

  /// The same item in macOS's legacy file keychain, where earlier versions saved it: read once and moved.
  var legacyQuery: Query {
    var query = query
    query[.dataProtectionKeychain] = .bool(false)
    query[.accessGroup] = nil
    return query
  }

  /// Reads the item's data (`SecItemCopyMatching`).
  static func reading(_ query: Query) -> Query {
    query.merging([.returnData: .bool(true), .matchLimit: .matchOne]) { $1 }
  }

  /// What `SecItemUpdate` sets: the data and the accessibility.
  func attributes(_ data: Data) -> Query {
    [.valueData: .data(data), .accessible: .accessibility(accessibility)]
  }

  /// Adds the item with `data` (`SecItemAdd`).
  func adding(_ data: Data) -> Query {
    query.merging(attributes(data)) { $1 }
  }

  /// The credentials stored as `data` (JSON, as `save` writes them).
  ///
  /// - Throws: ``CourierError/Kind-swift.struct/decoding`` when `data` is not an ``AuthToken``.
  static func token(from data: Data) throws -> AuthToken {
    do {
      return try JSONDecoder().decode(AuthToken.self, from: data)
    } catch {
      throw CourierError(.decoding, "The credentials in the Keychain could not be read", underlyingError: error)
    }
  }

  /// The failure to `action` (`read`, `save`, `delete`) the credentials with `status`.
  static func failure(_ action: String, status: Int32) -> CourierError {
    CourierError(
      .keychain, "The Keychain could not \(action) the credentials: \(describe(status))",
      underlyingError: NSError(domain: "NSOSStatusErrorDomain", code: Int(status)))
  }

  /// What the `OSStatus` of a `SecItem` call means, e.g.
  /// `errSecInteractionNotAllowed (-25308): the device is locked …`.
  static func describe(_ status: Int32) -> String {
    let meaning: String
    switch status {
    case -25300: meaning = "errSecItemNotFound (-25300): there is no such item"
    case -25299: meaning = "errSecDuplicateItem (-25299): the item already exists"
    case -25308:
      meaning =
        "errSecInteractionNotAllowed (-25308): the device is locked and the item's accessibility does not allow "
        + "reading it now"
    case -34018:
      meaning =
        "errSecMissingEntitlement (-34018): the app is not entitled to the Keychain or to the access group "
        + "(keychain-access-groups; an unsigned build has no entitlements)"
    case -25293: meaning = "errSecAuthFailed (-25293): authentication failed"
    case -25291: meaning = "errSecNotAvailable (-25291): no Keychain is available"
    case -128: meaning = "errSecUserCanceled (-128): the user cancelled"
    case -50: meaning = "errSecParam (-50): a parameter was not valid"
    default: meaning = "OSStatus \(status)"
    }
    return meaning
  }
}
