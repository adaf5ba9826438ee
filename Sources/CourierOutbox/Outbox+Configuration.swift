import Courier
import Foundation

extension Outbox {
  /// How the outbox sends, backs off and limits.
  public struct Configuration: Sendable {
    /// How many lanes send at once.
    public var maxConcurrentLanes = 4
    /// Attempts before an item becomes a dead letter.
    public var maxAttempts = 10
    /// The backoff's first ceiling, in seconds (full jitter: each wait is random below the ceiling, which doubles
    /// each attempt up to ``maxDelay``), never less than what `Retry-After` asks for.
    public var baseDelay: TimeInterval = 1
    /// The backoff's highest ceiling, in seconds.
    public var maxDelay: TimeInterval = 300
    /// How long the server keeps idempotency keys (24 h by default): an item older than this is not sent again
    /// blindly — ``reconcile`` decides.
    public var keyRetention: TimeInterval = 24 * 3600
    /// What happens to an item older than ``keyRetention``; by default it becomes a dead letter.
    public var reconcile: @Sendable (OutboxItem) async -> Reconciliation = { _ in .deadLetter }
    /// The bytes of bodies the outbox may hold waiting; an enqueue past it throws ``OutboxError/Kind/limitReached``.
    public var maxQueuedBytes = 256 << 20
    /// The network: the outbox sends while it reports a usable path, and starts sending when one comes.
    public var monitor: NetworkMonitor = .system
    /// The clock of backoffs, ages and constraints.
    public var clock: any DelayClock = SystemDelayClock()
    /// The kinds and versions this app handles; an item of another is quarantined at start. `nil` accepts all.
    public var kinds: Set<Kind>?
    /// Whether the outbox follows the app's lifecycle: it sends what waits when the app comes to the foreground (or,
    /// on macOS, becomes active), and asks the system for time to finish the attempts in flight when the app leaves
    /// it (`performExpiringActivity`).
    public var observesAppLifecycle = true
    /// The notification center the app's lifecycle is observed on.
    public var notificationCenter: NotificationCenter = .default
    /// A number in 0..<1 for the jitter.
    public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// The defaults.
    public init() {}
  }

  /// A kind of write the app registers, and the version of its stored form.
  public struct Kind: Sendable, Hashable {
    /// The kind's name.
    public var name: String
    /// The version of its stored form.
    public var version: Int
    /// The kind `name` at `version`.
    public init(_ name: String, version: Int = 1) {
      self.name = name
      self.version = version
    }
  }

  /// What to do with an item that waited longer than the server keeps its key.
  public enum Reconciliation: Sendable, Equatable {
    /// Send it again with a new key: the app knows the first attempt was not applied, or applying it twice is safe.
    case resendWithNewKey
    /// Forget it (it becomes cancelled, with the reason).
    case drop
    /// Make it a dead letter, for the app to look at.
    case deadLetter
  }
}
