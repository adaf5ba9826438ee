import HTTPTypes

extension HTTPField.Name {
  /// The name for `name` when it is one servers send on almost every response in its usual spelling
  /// (`Content-Length`), so the common case skips validating and lowercasing each name; any other spelling takes
  /// the validating initializer and keeps its own spelling. A linear scan: these names are small strings, compared
  /// a word at a time, which beats hashing them.
  package static func common(_ name: String) -> HTTPField.Name? {
    for known in commonNames where known.rawName == name { return known }
    return nil
  }

  private static let commonNames: [HTTPField.Name] = [
    .server, .date, .contentType, .contentLength, .lastModified, .connection, .eTag, .acceptRanges, .cacheControl,
    .expires, .vary, .contentEncoding, .age, .transferEncoding, .setCookie, .location, HTTPField.Name("Keep-Alive")!,
  ]
}
