#if canImport(Hummingbird)
import HTTPTypes

@available(macOS 14, iOS 17, tvOS 17, *)
extension HTTPField.Name {
  /// `Link` (RFC 8288), which HTTPTypes does not predefine.
  static var webLink: Self { Self("Link")! }

  /// `Pragma` (HTTP/1.0's `no-cache`, RFC 9111 §5.4), which HTTPTypes does not predefine.
  static var pragma: Self { Self("Pragma")! }

  /// `Last-Event-ID`, which a server-sent events client sends when it reconnects (WHATWG HTML §9.2).
  static var lastEventID: Self { Self("Last-Event-ID")! }
}
#endif
