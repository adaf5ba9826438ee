import Courier
import Foundation

/// Where a screen's data is: not asked for yet, on its way, here, or failed. Drive a view from it.
///
/// ```swift
/// var state: LoadingState<[Product]> = .idle
/// state = .loading
/// state = await LoadingState { try await products.list(category: "books") }
///
/// switch state {
/// case .idle, .loading: ProgressView()
/// case .loaded(let items): List(items) { Text($0.name) }
/// case .failed: Text(state.errorMessage ?? "")
/// }
/// ```
///
/// On Apple platforms, `ObservableLoader` keeps one in a `@Published` property for SwiftUI and UIKit.
public enum LoadingState<Value: Sendable>: Sendable {
  /// Nothing has been asked for yet.
  case idle
  /// A load is under way.
  case loading
  /// The value arrived.
  case loaded(Value)
  /// The load failed; the error is usually a `CourierError`.
  case failed(any Error)

  /// Runs `operation` and captures its outcome: `.loaded` with its value, or `.failed` with what it threw.
  ///
  /// `operation` runs in the caller's isolation (on the main actor when called from a view model there).
  public init(
    isolation: isolated (any Actor)? = #isolation,
    catching operation: () async throws -> Value
  ) async {
    do {
      self = .loaded(try await operation())
    } catch {
      self = .failed(error)
    }
  }

  /// The value when loaded.
  public var value: Value? {
    if case .loaded(let value) = self { return value }
    return nil
  }

  /// The error when failed.
  public var error: (any Error)? {
    if case .failed(let error) = self { return error }
    return nil
  }

  /// The error when failed with a `CourierError`.
  public var courierError: CourierError? { error as? CourierError }

  /// Whether a load is under way.
  public var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }

  /// A message for people when failed: `CourierError.userMessage` or the error's localized description.
  public var errorMessage: String? {
    guard let error else { return nil }
    return (error as? CourierError)?.userMessage ?? error.localizedDescription
  }

  /// The same state with the loaded value transformed.
  ///
  /// ```swift
  /// let names: LoadingState<[String]> = state.map { $0.map(\.name) }
  /// ```
  public func map<T: Sendable>(_ transform: (Value) throws -> T) rethrows -> LoadingState<T> {
    switch self {
    case .idle: .idle
    case .loading: .loading
    case .loaded(let value): .loaded(try transform(value))
    case .failed(let error): .failed(error)
    }
  }
}
