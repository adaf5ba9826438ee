import HTTPTypes

extension HTTPField.Name {
  /// `Link` (RFC 8288), which HTTPTypes does not predefine.
  static var webLink: Self { Self("Link")! }
}
