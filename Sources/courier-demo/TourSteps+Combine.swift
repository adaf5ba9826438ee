import Courier
import CourierCombine
import Foundation

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// The tour's Combine step: an endpoint as a publisher, through `CourierCombine` (Combine on Apple platforms,
/// OpenCombine elsewhere).
@available(macOS 14, iOS 17, tvOS 17, *)
extension TourSteps {
  func runCombineSteps() async throws {
    step("Combine: an endpoint as a publisher (CourierCombine)")
    let publisher = client.publisher(for: Endpoint<ProductPage>.get("/products").query("limit", 3))
      .map { page in page.items.map(\.name) }
    let names = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[String], any Error>) in
      // The subscription keeps the sink until the publisher completes; no cancellable to hold.
      publisher.subscribe(
        Subscribers.Sink(
          receiveCompletion: { completion in
            if case .failure(let error) = completion { continuation.resume(throwing: error) }
          },
          receiveValue: { continuation.resume(returning: $0) }))
    }
    print("  client.publisher(for:) → \(names.joined(separator: ", "))")
  }
}
