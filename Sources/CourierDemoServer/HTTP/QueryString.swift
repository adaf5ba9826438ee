#if canImport(Hummingbird)
/// A query string split into ordered name/value pairs without any normalisation.
///
/// The raw text is split on `&`, each part on its first `=`, and both halves are percent-decoded per
/// RFC 3986 (`+` stays `+`). A part without `=` has the value `""`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct QueryString: Sendable {
  /// One `name=value` part of the query.
  struct Item: Sendable, Equatable {
    /// The part exactly as sent, e.g. `b=x%20y`.
    var raw: Substring
    /// The decoded name.
    var name: String
    /// The decoded value (`""` when the part has no `=`).
    var value: String
  }

  /// The text after the first `?`, or `nil` when the target has no `?`.
  let raw: String?
  /// The parts in the order they were sent.
  let items: [Item]

  /// Parses a raw query (the text after `?`).
  init(raw: String?) {
    self.raw = raw
    guard let raw, !raw.isEmpty else {
      self.items = []
      return
    }
    self.items = raw.split(separator: "&", omittingEmptySubsequences: false).map { part in
      if let equals = part.firstIndex(of: "=") {
        let name = PercentDecoding.decode(part[..<equals])
        let value = PercentDecoding.decode(part[part.index(after: equals)...])
        return Item(raw: part, name: name, value: value)
      }
      return Item(raw: part, name: PercentDecoding.decode(part), value: "")
    }
  }

  /// Splits a request target such as `/echo/a%20b?x=1` into its raw path and raw query.
  static func split(target: String) -> (path: Substring, query: String?) {
    var target = Substring(target)
    if let hash = target.firstIndex(of: "#") {
      target = target[..<hash]
    }
    guard let question = target.firstIndex(of: "?") else {
      return (target, nil)
    }
    return (target[..<question], String(target[target.index(after: question)...]))
  }

  /// The first value sent for `name`.
  func first(_ name: String) -> String? {
    items.first { $0.name == name }?.value
  }

  /// The raw query with `name` set to `value` (replacing the first occurrence in place, dropping later ones, or
  /// appending when absent); every other part is kept exactly as sent.
  func replacing(_ name: String, with value: String) -> String {
    var parts: [Substring] = []
    var replaced = false
    for item in items where !(item.name == name && replaced) {
      if item.name == name {
        parts.append(Substring("\(name)=\(value)"))
        replaced = true
      } else {
        parts.append(item.raw)
      }
    }
    if !replaced {
      parts.append(Substring("\(name)=\(value)"))
    }
    return parts.joined(separator: "&")
  }
}
#endif
