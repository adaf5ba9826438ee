#if canImport(Combine)
import Courier
import Combine

/// Loads a value for a SwiftUI view or a UIKit screen and publishes its ``LoadingState`` (Apple platforms).
///
/// ```swift
/// struct ProductsView: View {
///   @StateObject var loader = ObservableLoader { try await ProductService(client: .shop).list() }
///   var body: some View {
///     content.task { await loader.load() }.refreshable { await loader.load() }
///   }
/// }
/// ```
///
/// A new load replaces the one under way; a cancelled load puts back the state from before it.
@MainActor
public final class ObservableLoader<Value: Sendable>: ObservableObject {
  /// The current state; starts `.idle`.
  @Published public private(set) var state: LoadingState<Value> = .idle

  private let operation: @Sendable () async throws -> Value
  private var current: Task<LoadingState<Value>, Never>?
  private var stateBeforeLoading: LoadingState<Value> = .idle

  /// Creates a loader that runs `operation` on each load.
  public init(_ operation: @escaping @Sendable () async throws -> Value) {
    self.operation = operation
  }

  /// Loads the value, publishing `.loading` and then `.loaded` or `.failed`, and returns when done.
  public func load() async {
    current?.cancel()
    if !state.isLoading { stateBeforeLoading = state }
    state = .loading
    let operation = operation
    let task = Task { await LoadingState { try await operation() } }
    current = task
    let outcome = await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
    guard current == task else { return }
    current = nil
    state = task.isCancelled ? stateBeforeLoading : outcome
  }

  /// Starts a load without waiting for it, for UIKit's `viewDidLoad` or a button action.
  public func reload() {
    Task { await load() }
  }

  /// Cancels the load under way, if any, putting back the state from before it.
  public func cancel() {
    current?.cancel()
  }
}
#endif
