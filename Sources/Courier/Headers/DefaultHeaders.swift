import Foundation
import HTTPTypes

extension HTTPHeader {
  /// The default `User-Agent`: `App/1.0 (bundle-id; build:1; Linux 6.1) Courier/0.1`, read from the main bundle's
  /// Info.plist where there is one and from the process otherwise.
  public static var defaultUserAgent: HTTPHeader {
    let info = Bundle.main.infoDictionary ?? [:]
    let process = ProcessInfo.processInfo
    let executable = token(
      info["CFBundleExecutable"] as? String ?? info["CFBundleName"] as? String ?? process.processName)
    let bundle = token(info["CFBundleIdentifier"] as? String ?? "unknown")
    let version = token(info["CFBundleShortVersionString"] as? String ?? "unknown")
    let build = token(info["CFBundleVersion"] as? String ?? "unknown")
    let os = process.operatingSystemVersion
    let system = "\(operatingSystemName) \(os.majorVersion).\(os.minorVersion)"
    return .userAgent("\(executable)/\(version) (\(bundle); build:\(build); \(system)) Courier/\(courierVersion)")
  }

  /// The default `Accept-Language`: the user's preferred languages, at most six, with q-values.
  public static var defaultAcceptLanguage: HTTPHeader {
    let languages = Locale.preferredLanguages.prefix(6)
    return .acceptLanguage(languages.isEmpty ? ["en"] : Array(languages))
  }

  static let courierVersion = "0.1"

  /// `text` percent-encoded outside letters, digits and `-._~`, as CFNetwork writes an app's name in its
  /// `User-Agent`: `Погода` becomes `%D0%9F%D0%BE...`, `My App` becomes `My%20App`.
  static func token(_ text: String) -> String {
    var allowed = CharacterSet(charactersIn: "-._~")
    allowed.formUnion(CharacterSet(charactersIn: "a"..."z"))
    allowed.formUnion(CharacterSet(charactersIn: "A"..."Z"))
    allowed.formUnion(CharacterSet(charactersIn: "0"..."9"))
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "unknown"
  }

  static var operatingSystemName: String {
    #if os(iOS)
    "iOS"
    #elseif os(macOS)
    "macOS"
    #elseif os(tvOS)
    "tvOS"
    #elseif os(watchOS)
    "watchOS"
    #elseif os(visionOS)
    "visionOS"
    #elseif os(Linux)
    "Linux"
    #elseif os(Windows)
    "Windows"
    #else
    "Unknown"
    #endif
  }
}

extension HTTPFields {
  /// The headers every client sends unless configured otherwise: `User-Agent`, `Accept-Language` and
  /// `Accept: application/json`.
  public static var courierDefaults: HTTPFields {
    var fields = HTTPFields()
    for header in [HTTPHeader.defaultUserAgent, .defaultAcceptLanguage, .accept("application/json")] {
      if let field = try? header.validated() { fields.append(field) }
    }
    return fields
  }
}
