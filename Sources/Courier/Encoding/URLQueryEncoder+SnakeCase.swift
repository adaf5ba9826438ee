extension URLQueryEncoder.KeyEncoding {
  /// Applies the strategy to one key name.
  func apply(to key: String) -> String {
    switch self {
    case .useDefaultKeys:
      return key
    case .convertToSnakeCase:
      return Self.snakeCase(key)
    case .custom(let transform):
      return transform(key)
    }
  }

  /// Converts a camel-case key to snake case with the same word-splitting rules as `JSONEncoder`:
  /// a word ends before an uppercase letter, and a run of several uppercase letters is a word of its own
  /// (its last capital starts the next word when a lowercase letter follows).
  ///
  /// `myProperty` → `my_property`, `myURLValue` → `my_url_value`, `userID` → `user_id`.
  static func snakeCase(_ key: String) -> String {
    let scalars = Array(key.unicodeScalars)
    guard !scalars.isEmpty else { return key }

    func isUpper(_ scalar: Unicode.Scalar) -> Bool {
      let category = scalar.properties.generalCategory
      return category == .uppercaseLetter || category == .titlecaseLetter
    }
    func isLower(_ scalar: Unicode.Scalar) -> Bool {
      scalar.properties.generalCategory == .lowercaseLetter
    }

    var words: [Range<Int>] = []
    var wordStart = 0
    var searchStart = 1
    let end = scalars.count
    while let upper = (searchStart..<end).first(where: { isUpper(scalars[$0]) }) {
      words.append(wordStart..<upper)
      guard let lower = (upper..<end).first(where: { isLower(scalars[$0]) }) else {
        // No more lowercase letters: the rest is one word.
        wordStart = upper
        break
      }
      if lower == upper + 1 {
        // A single capital followed by lowercase letters starts a new word.
        wordStart = upper
      } else {
        // A run of capitals is a word; its last capital starts the next word.
        words.append(upper..<(lower - 1))
        wordStart = lower - 1
      }
      searchStart = lower + 1
    }
    words.append(wordStart..<end)

    return words.map { range in
      var word = String.UnicodeScalarView()
      word.append(contentsOf: scalars[range])
      return String(word).lowercased()
    }.joined(separator: "_")
  }
}
