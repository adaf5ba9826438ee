import Foundation

/// The messages Courier shows people for failed calls (``CourierError/userMessage``), made from the client's
/// ``APIClient/Configuration/messageLanguage``, ``APIClient/Configuration/kindMessages`` and
/// ``APIClient/Configuration/statusMessages``.
struct UserMessages: Sendable {
  /// The languages Courier ships messages in.
  static let availableLanguages = ["en", "ru"]
  /// The messages in the app's preferred language, read once.
  static let preferred = UserMessages()

  /// The language of the messages (`en`, `ru`).
  let language: String
  private let table: [String: String]
  private var kinds: [CourierError.Kind: String] = [:]
  private var statuses: [Int: String] = [:]

  /// Messages in `language` (one of ``availableLanguages``), or, by default, in the first of the app's preferred
  /// languages that Courier ships (English when none is).
  init(language: String? = nil) {
    let chosen =
      language.flatMap { Self.availableLanguages.contains($0) ? $0 : nil }
      ?? Bundle.preferredLocalizations(from: Self.availableLanguages, forPreferences: Locale.preferredLanguages)
      .first { Self.availableLanguages.contains($0) } ?? "en"
    self.language = chosen
    table = Self.table(for: chosen) ?? Self.table(for: "en") ?? [:]
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
    case .invalidURL, .invalidRequest, .encoding: return text("kind.invalidRequest")
    default:
      let key = "kind.\(error.kind)"
      return table[key] ?? text("kind.other")
    }
  }

  /// Courier's sentence for the HTTP status `code`.
  func sentence(forStatus code: Int) -> String {
    if let known = table["status.\(code)"] { return known }
    if (500..<600).contains(code) { return text("status.5xx") }
    return text("status.other").replacingOccurrences(of: "%d", with: "\(code)")
  }

  private func text(_ key: String) -> String { table[key] ?? key }

  /// The `Localizable.strings` table Courier ships for `language`.
  private static func table(for language: String) -> [String: String]? {
    guard
      let url = Bundle.module.url(
        forResource: "Localizable", withExtension: "strings", subdirectory: nil, localization: language)
        ?? Bundle.module.url(forResource: "Localizable", withExtension: "strings", subdirectory: "\(language).lproj"),
      let text = try? String(contentsOf: url, encoding: .utf8)
    else {
      return nil
    }
    return StringsFile.parse(text)
  }
}

/// Reads the `"key" = "value";` lines of a `.strings` file (comments and blank lines skipped, `\"`, `\\` and `\n`
/// escapes understood).
enum StringsFile {
  static func parse(_ text: String) -> [String: String] {
    var table: [String: String] = [:]
    for line in text.split(whereSeparator: \.isNewline) {
      var rest = line.drop { $0 == " " || $0 == "\t" }[...]
      guard let key = quoted(&rest) else { continue }
      rest = rest.drop { $0 == " " || $0 == "\t" }
      guard rest.first == "=" else { continue }
      rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
      guard let value = quoted(&rest) else { continue }
      table[key] = value
    }
    return table
  }

  /// The string literal at the start of `text`, which is advanced past it.
  private static func quoted(_ text: inout Substring) -> String? {
    guard text.first == "\"" else { return nil }
    var result = ""
    var index = text.index(after: text.startIndex)
    while index < text.endIndex {
      let character = text[index]
      if character == "\"" {
        text = text[text.index(after: index)...]
        return result
      }
      if character == "\\" {
        index = text.index(after: index)
        guard index < text.endIndex else { return nil }
        result.append(text[index] == "n" ? "\n" : text[index])
      } else {
        result.append(character)
      }
      index = text.index(after: index)
    }
    return nil
  }
}
