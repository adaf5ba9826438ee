import Courier
import Foundation

/// One link of a `Link` header field (RFC 8288): a target URI reference and its parameters, such as `rel`.
///
/// ```swift
/// let links = WebLink.parse(#"<https://api.example.com/items?page=2>; rel="next", </items?page=9>; rel="last""#)
/// links[0].relations                  // ["next"]
/// links[1].url(relativeTo: pageURL)   // https://api.example.com/items?page=9
/// ```
///
/// Read a response's links with ``Courier/APIResponse/links`` or ``Courier/APIResponse/link(_:)``.
public struct WebLink: Sendable, Hashable {
  /// One `name=value` parameter of a link; a parameter written without a value has an empty one.
  public struct Parameter: Sendable, Hashable {
    /// The name, lowercased; an extended parameter keeps its `*` (`title*`).
    public var name: String
    /// The value: unquoted and unescaped, and for an extended parameter (RFC 8187) percent-decoded.
    public var value: String

    /// Creates a parameter.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The target as written between `<` and `>`: an absolute URL or a reference relative to the response's URL.
  public var target: String
  /// Every parameter, in order, repeated names included.
  public var parameters: [Parameter]

  /// Creates a link.
  public init(target: String, parameters: [Parameter] = []) {
    self.target = target
    self.parameters = parameters
  }

  /// The value of the first parameter called `name` (case-insensitive), or `nil`. RFC 8288 ignores later
  /// occurrences of `rel`, `anchor`, `media`, `title`, `title*` and `type`.
  public func parameter(_ name: String) -> String? {
    let name = name.lowercased()
    return parameters.first { $0.name == name }?.value
  }

  /// The relation types of the first `rel` parameter, lowercased: `rel="next last"` gives `["next", "last"]`.
  public var relations: [String] {
    (parameter("rel") ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
  }

  /// Whether the link has the relation type `relation`, compared case-insensitively.
  public func hasRelation(_ relation: String) -> Bool {
    relations.contains(relation.lowercased())
  }

  /// The target resolved against `base` (the URL of the response that carried the link); `nil` when it is not a
  /// valid URI reference.
  public func url(relativeTo base: URL?) -> URL? {
    URL(string: target, relativeTo: base)?.absoluteURL
  }

  /// Parses a `Link` field value into its links, in order. A link that does not start with `<` is skipped up to the
  /// next comma; quoted parameter values may hold commas and semicolons.
  public static func parse(_ fieldValue: String) -> [WebLink] {
    var parser = WebLinkParser(fieldValue)
    return parser.parseLinks()
  }
}
