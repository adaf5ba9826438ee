#if canImport(UIKit)
import Courier
import UIKit

extension BinaryContent {
  /// The bytes as an image, or `nil` when UIKit cannot read them.
  public var image: UIImage? { UIImage(data: data) }
}

extension APIClient {
  /// Loads an image.
  ///
  /// ```swift
  /// avatarView.image = try await client.image(.image("/users/7/avatar"))
  /// ```
  ///
  /// - Throws: `CourierError`; `CourierError.Kind.decoding` when the bytes are not an image.
  public func image(_ endpoint: Endpoint<BinaryContent>) async throws -> sending UIImage {
    let content = try await value(endpoint)
    guard let image = UIImage(data: content.data) else {
      throw CourierError(.decoding, "The \(content.data.count) bytes received are not an image UIKit can read")
    }
    return image
  }
}
#endif
