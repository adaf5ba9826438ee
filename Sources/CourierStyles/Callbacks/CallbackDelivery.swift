import Courier

/// Where a ``CallbackRequest`` runs its callbacks: on the main actor (the default), or without isolation,
/// optionally on an actor of your choice.
///
/// ```swift
/// client.call(feed).onSuccess { items in self.tableView.reload(items) }.execute()  // main actor
///
/// client.call(sync)
///   .callbacks(on: .nonisolated)          // where the call finished, off the main actor
///   .onSuccess { changes in store.record(changes) }
///   .execute()
///
/// client.call(sync).callbacks(on: .actor(database)).onSuccess { ... }.execute()  // on the actor's executor
/// ```
public protocol CallbackDelivery: Sendable {}

/// Runs callbacks on the main actor, so they may touch UIKit and AppKit. The default.
public struct MainActorDelivery: CallbackDelivery {
  /// Creates the delivery.
  public init() {}

  /// A handler that hops to the main actor to run `handler`.
  func wrap<T: Sendable>(_ handler: @escaping @MainActor @Sendable (T) -> Void) -> @Sendable (T) async -> Void {
    { value in await handler(value) }
  }
}

/// Runs callbacks without isolation, where the call finished, or on the executor of an actor you name.
public struct NonisolatedDelivery: CallbackDelivery {
  /// The actor whose executor runs the callbacks, or `nil` for none.
  public let actor: (any Actor)?

  /// Creates the delivery, on `actor`'s executor when one is given.
  public init(on actor: (any Actor)? = nil) {
    self.actor = actor
  }

  /// A handler that runs `handler` where the call is, or on the actor.
  func wrap<T: Sendable>(_ handler: @escaping @Sendable (T) -> Void) -> @Sendable (T) async -> Void {
    guard let actor else { return { value in handler(value) } }
    return { value in await Self.run(on: actor) { handler(value) } }
  }

  private static func run(on actor: isolated any Actor, _ body: @Sendable () -> Void) {
    body()
  }
}

extension CallbackDelivery where Self == MainActorDelivery {
  /// On the main actor: the default.
  public static var mainActor: MainActorDelivery { MainActorDelivery() }
}

extension CallbackDelivery where Self == NonisolatedDelivery {
  /// Without isolation, on the task that ran the call.
  public static var nonisolated: NonisolatedDelivery { NonisolatedDelivery() }

  /// On `actor`'s executor, one callback at a time, as if the actor ran them.
  public static func actor(_ actor: any Actor) -> NonisolatedDelivery { NonisolatedDelivery(on: actor) }
}
