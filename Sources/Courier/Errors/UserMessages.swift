import Foundation

/// The messages Courier shows people for failed calls (``CourierError/userMessage``), made from the client's
/// ``APIClient/Configuration/messageLanguage``, ``APIClient/Configuration/kindMessages`` and
/// ``APIClient/Configuration/statusMessages``.
///
/// Courier's sentences live in the module's `en.lproj` and `ru.lproj` `Localizable.strings` and are read through
/// Foundation's bundle API, which understands every form Xcode's resource step leaves them in (UTF-8, UTF-16, binary
/// property lists). A sentence missing from the chosen language comes in English, and one missing from English too
/// is a built-in English default, never the raw key.
struct UserMessages: Sendable {
  /// The languages Courier ships messages in.
  static let availableLanguages = ["en", "ru"]
  /// The messages in the app's preferred language, read once.
  static let preferred = UserMessages()

  /// The language of the messages (`en`, `ru`).
  let language: String
  private let table: MessageTable
  private let english: MessageTable
  private var kinds: [CourierError.Kind: String] = [:]
  private var statuses: [Int: String] = [:]

  /// Messages in `language` (one of ``availableLanguages``), or, by default, in the first of the app's preferred
  /// languages that Courier ships (English when none is), read from the `.lproj` folders of `bundle`.
  init(language: String? = nil, bundle: Bundle = .module) {
    let chosen =
      language.flatMap { Self.availableLanguages.contains($0) ? $0 : nil }
      ?? Bundle.preferredLocalizations(from: Self.availableLanguages, forPreferences: Locale.preferredLanguages)
      .first { Self.availableLanguages.contains($0) } ?? "en"
    self.language = chosen
    english = MessageTable(language: "en", in: bundle)
    table = chosen == "en" ? english : MessageTable(language: chosen, in: bundle)
  }

  /// The messages a client's configuration asks for.
  init(_ configuration: APIClient.Configuration) {
    if configuration.messageLanguage == nil {
      self = .preferred
    } else {
      self.init(language: configuration.messageLanguage)
    }
    kinds = configuration.kindMessages
    statuses = Dictionary(configuration.statusMessages.map { ($0.key.code, $0.value) }) { _, last in last }
  }

  /// The app's replacement for `error`'s message, by status first, then by kind.
  func replacement(for error: CourierError) -> String? {
    if let code = error.status?.code, let message = statuses[code] { return message }
    return kinds[error.kind]
  }

  /// Courier's sentence for `error`: for its status when the server answered, else for its kind.
  func sentence(for error: CourierError) -> String {
    switch error.kind {
    case .unacceptableStatus: return sentence(forStatus: error.status?.code ?? 0)
    case .invalidURL, .invalidRequest, .encoding: return text("kind.invalidRequest") ?? Self.otherFailure
    default: return text("kind.\(error.kind)") ?? text("kind.other") ?? Self.otherFailure
    }
  }

  /// Courier's sentence for the HTTP status `code`.
  func sentence(forStatus code: Int) -> String {
    if let known = text("status.\(code)") { return known }
    if (500..<600).contains(code), let serverError = text("status.5xx") { return serverError }
    return (text("status.other") ?? Self.otherStatus).replacingOccurrences(of: "%d", with: "\(code)")
  }

  /// The sentence for `key` in the chosen language, else in English.
  private func text(_ key: String) -> String? { table[key] ?? english[key] }

  /// The sentence for a failure no table has a sentence for.
  static let otherFailure = "Something went wrong. Please try again."
  /// The sentence for a status no table has a sentence for; `%d` is the status code.
  static let otherStatus = "The request could not be completed (status %d)."
}

/// One language's `Localizable.strings` among a bundle's resources (`<language>.lproj`), read through Foundation.
struct MessageTable: Sendable {
  /// The `.lproj` folder as a bundle of its own, so that its table is read whatever the app's preferred languages;
  /// `nil` when the bundle has no folder for the language.
  private let folder: Bundle?

  /// The table of `language` in `bundle`.
  init(language: String, in bundle: Bundle) {
    folder = bundle.path(forResource: language, ofType: "lproj").flatMap { Bundle(path: $0) }
  }

  /// The sentence for `key`, or `nil` when the table has none.
  subscript(key: String) -> String? {
    guard let folder else { return nil }
    let text = folder.localizedString(forKey: key, value: Self.missing, table: "Localizable")
    return text == Self.missing || text == key ? nil : text
  }

  /// What Foundation returns for a key the table does not have.
  private static let missing = "\u{1}missing"
}
