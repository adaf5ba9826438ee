extension TokenStore {
  /// When the Keychain lets the app read the credentials `TokenStore.keychain(service:account:accessGroup:
  /// accessibility:)` keeps (Apple platforms), and whether they may leave the device in a backup.
  ///
  /// Each is one of the Keychain's `kSecAttrAccessible…` values. ``afterFirstUnlock``, the default, suits a token
  /// that background work (a refresh, a background URL session) needs while the device is locked.
  ///
  /// ```swift
  /// let store = TokenStore.keychain(service: "com.example.app", accessibility: .whenUnlockedThisDeviceOnly)
  /// ```
  public struct KeychainAccessibility: Sendable, Hashable, CustomStringConvertible {
    enum Base: String, Sendable, Hashable, CaseIterable {
      case afterFirstUnlock, afterFirstUnlockThisDeviceOnly, whenUnlocked, whenUnlockedThisDeviceOnly
      case whenPasscodeSetThisDeviceOnly
    }

    let base: Base

    /// Readable once the device has been unlocked after a restart, until the next restart; restored from backups
    /// to another device (`kSecAttrAccessibleAfterFirstUnlock`).
    public static let afterFirstUnlock = KeychainAccessibility(base: .afterFirstUnlock)
    /// As ``afterFirstUnlock``, and never restored to another device
    /// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`).
    public static let afterFirstUnlockThisDeviceOnly = KeychainAccessibility(base: .afterFirstUnlockThisDeviceOnly)
    /// Readable only while the device is unlocked; restored from backups to another device
    /// (`kSecAttrAccessibleWhenUnlocked`).
    public static let whenUnlocked = KeychainAccessibility(base: .whenUnlocked)
    /// As ``whenUnlocked``, and never restored to another device (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`).
    public static let whenUnlockedThisDeviceOnly = KeychainAccessibility(base: .whenUnlockedThisDeviceOnly)
    /// Readable only while the device is unlocked, and only on a device with a passcode: saving fails without one,
    /// and the item is deleted when the passcode is removed (`kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`).
    public static let whenPasscodeSetThisDeviceOnly = KeychainAccessibility(base: .whenPasscodeSetThisDeviceOnly)

    /// The name of the Security constant this stands for, e.g. `kSecAttrAccessibleAfterFirstUnlock`.
    var constantName: String {
      let name = base.rawValue
      return "kSecAttrAccessible" + name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The accessibility's name, e.g. `afterFirstUnlock`.
    public var description: String { base.rawValue }
  }
}
