import HTTPTypes

extension HTTPField.Name {
  /// The name for `name` when it is one servers send on almost every response in its usual spelling
  /// (`Content-Length`), so the common case skips validating and lowercasing each name; any other spelling takes
  /// the validating initializer and keeps its own spelling. The length picks the one to three candidates to compare
  /// (small strings, compared a word at a time), which beats hashing them.
  package static func common(_ name: String) -> HTTPField.Name? {
    let candidates: [HTTPField.Name]
    switch name.utf8.count {
    case 3: candidates = ages
    case 4: candidates = fours
    case 6: candidates = servers
    case 7: candidates = sevens
    case 8: candidates = locations
    case 10: candidates = tens
    case 12: candidates = contentTypes
    case 13: candidates = thirteens
    case 14: candidates = contentLengths
    case 16: candidates = contentEncodings
    case 17: candidates = transferEncodings
    default: return nil
    }
    for known in candidates where known.rawName == name { return known }
    return nil
  }

  private static let ages: [HTTPField.Name] = [.age]
  private static let fours: [HTTPField.Name] = [.date, .eTag, .vary]
  private static let servers: [HTTPField.Name] = [.server]
  private static let sevens: [HTTPField.Name] = [.expires]
  private static let locations: [HTTPField.Name] = [.location]
  private static let tens: [HTTPField.Name] = [.connection, .setCookie, HTTPField.Name("Keep-Alive")!]
  private static let contentTypes: [HTTPField.Name] = [.contentType]
  private static let thirteens: [HTTPField.Name] = [.lastModified, .acceptRanges, .cacheControl]
  private static let contentLengths: [HTTPField.Name] = [.contentLength]
  private static let contentEncodings: [HTTPField.Name] = [.contentEncoding]
  private static let transferEncodings: [HTTPField.Name] = [.transferEncoding]
}
