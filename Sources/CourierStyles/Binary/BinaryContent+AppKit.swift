#if canImport(AppKit) && !canImport(UIKit)
import Courier
import AppKit

extension BinaryContent {
  /// The bytes as an image, or `nil` when AppKit cannot read them.
  public var image: NSImage? { NSImage(data: data) }
}

extension APIClient {
  /// Loads an image.
  ///
  /// ```swift
  /// imageView.image = try await client.image(.image("/users/7/avatar"))
  /// ```
  ///
  /// - Throws: `CourierError`; `CourierError.Kind.decoding` when the bytes are not an image.
  public func image(_ endpoint: Endpoint<BinaryContent>) async throws -> sending NSImage {
    let content = try await value(endpoint)
    guard let image = NSImage(data: content.data) else {
      throw CourierError(.decoding, "The \(content.data.count) bytes received are not an image AppKit can read")
    }
    return image
  }
}
#endif
