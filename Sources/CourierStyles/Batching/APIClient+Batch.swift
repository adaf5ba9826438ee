import Courier
import Foundation

extension APIClient {
  /// Sends two or more endpoints of any value types and returns their values as a tuple, in argument order.
  ///
  /// ```swift
  /// let (user, products, post) = try await client.values(
  ///   Endpoint<User>.get("/users/me"),
  ///   Endpoint<ProductPage>.get("/products", query: ["limit": 5]),
  ///   Endpoint<Post>.get("/posts/1"),
  ///   mode: .concurrent
  /// )
  /// ```
  ///
  /// For one endpoint, call `value(_:)` (the value) or `send(_:)` (the whole `APIResponse`).
  ///
  /// In ``BatchMode/sequential`` mode (the default) each call starts when the previous one succeeded. In
  /// ``BatchMode/concurrent`` mode all start at once and the first failure cancels the others. Either way the
  /// batch throws the first `CourierError` and returns nothing, and cancelling the calling task cancels every
  /// call in flight. Each call runs through the client's interceptors as if sent alone.
  ///
  /// Parameter packs in generic functions work on every platform Courier supports (the compiler back-deploys what
  /// they need); Courier declares no variadic generic types, which would need iOS 17 / macOS 14.
  ///
  /// - Parameters:
  ///   - first: The first endpoint.
  ///   - second: The second endpoint.
  ///   - rest: Any number of further endpoints.
  ///   - mode: One at a time (the default) or all at once.
  /// - Returns: The decoded values, in argument order.
  /// - Throws: The first `CourierError`; in concurrent mode the one that happened first.
  public func values<First, Second, each Rest>(
    _ first: Endpoint<First>,
    _ second: Endpoint<Second>,
    _ rest: repeat Endpoint<each Rest>,
    mode: BatchMode = .sequential
  ) async throws -> (First, Second, repeat each Rest) {
    switch mode.base {
    case .sequential:
      return (try await send(first).value, try await send(second).value, repeat try await send(each rest).value)
    case .concurrent:
      return try await sendConcurrently(first, second, repeat each rest)
    }
  }

  /// Runs every call of a batch in its own child task; the first failure ends the group, which cancels the rest.
  private func sendConcurrently<First, Second, each Rest>(
    _ first: Endpoint<First>,
    _ second: Endpoint<Second>,
    _ rest: repeat Endpoint<each Rest>
  ) async throws -> (First, Second, repeat each Rest) {
    let firstSlot = makeBatchSlot(for: first)
    let secondSlot = makeBatchSlot(for: second)
    let restSlots = (repeat makeBatchSlot(for: each rest))
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await self.fill(firstSlot, sending: first) }
      group.addTask { try await self.fill(secondSlot, sending: second) }
      for (endpoint, slot) in repeat (each rest, each restSlots) {
        group.addTask { try await self.fill(slot, sending: endpoint) }
      }
      // `next()` throws the first failure as it happens; leaving the group by throwing cancels the other calls.
      while try await group.next() != nil {}
    }
    return (takeValue(firstSlot), takeValue(secondSlot), repeat takeValue(each restSlots))
  }

  private func fill<Value>(_ slot: BatchSlot<Value>, sending endpoint: Endpoint<Value>) async throws {
    let value = try await send(endpoint).value
    slot.withLock { $0 = value }
  }
}
