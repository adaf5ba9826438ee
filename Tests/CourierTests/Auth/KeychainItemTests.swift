import Foundation
import Testing

@testable import Courier

/// The queries `TokenStore.keychain` hands the `SecItem` functions, and what their failures say, checked as plain
/// values on every platform.
@Suite struct KeychainItemTests {
  let item = KeychainItem(
    service: "com.example.app", account: "api", accessGroup: "TEAMID.com.example.shared",
    accessibility: .whenUnlockedThisDeviceOnly)

  /// `query` with its keys as the Security constants' names.
  func named(_ query: KeychainItem.Query) -> [String: KeychainItem.Value] {
    Dictionary(uniqueKeysWithValues: query.map { ($0.key.rawValue, $0.value) })
  }

  @Test func theItemIsAGenericPasswordInTheDataProtectionKeychainWithItsAccessGroup() {
    #expect(
      named(item.query) == [
        "kSecClass": .genericPassword, "kSecAttrService": .string("com.example.app"),
        "kSecAttrAccount": .string("api"), "kSecAttrAccessGroup": .string("TEAMID.com.example.shared"),
        "kSecUseDataProtectionKeychain": .bool(true),
      ])
    let withoutGroup = KeychainItem(
      service: "s", account: "a", accessGroup: nil, accessibility: .afterFirstUnlock)
    #expect(withoutGroup.query[.accessGroup] == nil, "the app's default group")
    #expect(withoutGroup.query[.dataProtectionKeychain] == .bool(true))
  }

  @Test func readingAsksForOneItemsData() {
    let reading = named(KeychainItem.reading(item.query))
    #expect(reading["kSecReturnData"] == .bool(true))
    #expect(reading["kSecMatchLimit"] == .matchOne)
    #expect(reading["kSecAttrService"] == .string("com.example.app"))
    #expect(reading["kSecUseDataProtectionKeychain"] == .bool(true))
  }

  @Test func savingSetsTheDataAndTheAccessibilityAndAddingIdentifiesTheItemToo() {
    let data = Data("token".utf8)
    #expect(
      named(item.attributes(data)) == [
        "kSecValueData": .data(data), "kSecAttrAccessible": .accessibility(.whenUnlockedThisDeviceOnly),
      ])
    #expect(item.attributes(data)[.itemClass] == nil, "SecItemUpdate refuses a class among its attributes")
    let adding = named(item.adding(data))
    #expect(adding.count == 7)
    #expect(adding["kSecClass"] == .genericPassword)
    #expect(adding["kSecAttrAccessGroup"] == .string("TEAMID.com.example.shared"))
    #expect(adding["kSecAttrAccessible"] == .accessibility(.whenUnlockedThisDeviceOnly))
    #expect(adding["kSecValueData"] == .data(data))
  }

  @Test func theLegacyItemIsLookedForOutsideTheDataProtectionKeychainWithoutAGroup() {
    let legacy = named(item.legacyQuery)
    #expect(legacy["kSecUseDataProtectionKeychain"] == .bool(false))
    #expect(legacy["kSecAttrAccessGroup"] == nil)
    #expect(legacy["kSecAttrService"] == .string("com.example.app"))
    #expect(legacy["kSecAttrAccount"] == .string("api"))
  }

  @Test func eachAccessibilityNamesItsSecurityConstant() {
    let names = [
      TokenStore.KeychainAccessibility.afterFirstUnlock, .afterFirstUnlockThisDeviceOnly, .whenUnlocked,
      .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly,
    ].map(\.constantName)
    #expect(
      names == [
        "kSecAttrAccessibleAfterFirstUnlock", "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly",
        "kSecAttrAccessibleWhenUnlocked", "kSecAttrAccessibleWhenUnlockedThisDeviceOnly",
        "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly",
      ])
    #expect(TokenStore.KeychainAccessibility.Base.allCases.count == names.count)
    #expect(TokenStore.KeychainAccessibility.afterFirstUnlock.description == "afterFirstUnlock")
  }

  @Test(arguments: [
    (Int32(-25300), "errSecItemNotFound (-25300)"),
    (-25299, "errSecDuplicateItem (-25299)"),
    (-25308, "errSecInteractionNotAllowed (-25308): the device is locked"),
    (-34018, "errSecMissingEntitlement (-34018)"),
    (-25293, "errSecAuthFailed (-25293)"),
    (-25291, "errSecNotAvailable (-25291)"),
    (-128, "errSecUserCanceled (-128)"),
    (-50, "errSecParam (-50)"),
    (-99999, "OSStatus -99999"),
  ])
  func aFailureNamesItsStatus(status: Int32, named name: String) {
    #expect(KeychainItem.describe(status).hasPrefix(name), "\(KeychainItem.describe(status))")
  }

  @Test func aFailureIsAKeychainErrorThatIsNeverRetriedAndKeepsTheStatus() throws {
    let failure = KeychainItem.failure("read", status: -25308)
    #expect(failure.kind == .keychain)
    #expect(failure.kind != .transport)
    #expect(!failure.isRetryable && !failure.isTimeout && !failure.isNoConnection && !failure.isCancellation)
    #expect(failure.description.contains("could not read the credentials"))
    #expect(failure.description.contains("errSecInteractionNotAllowed"))
    let underlying = try #require(failure.underlyingError as? NSError)
    #expect(underlying.domain == "NSOSStatusErrorDomain")
    #expect(underlying.code == -25308)
    #expect(CourierError.Kind.keychain.description == "keychain")
  }

  @Test func storedCredentialsAreReadBackAndOthersAreADecodingError() throws {
    let token = AuthToken(accessToken: "a", refreshToken: "r")
    #expect(try KeychainItem.token(from: JSONEncoder().encode(token)) == token)
    let error = #expect(throws: CourierError.self) { try KeychainItem.token(from: Data("not json".utf8)) }
    #expect(error?.kind == .decoding)
  }
}
