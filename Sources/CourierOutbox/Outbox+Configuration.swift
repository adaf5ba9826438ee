import Courier
import Foundation

extension Outbox {
  /// How the outbox sends, backs off and limits.
  public struct Configuration: Sendable {
    /// How many lanes send at once. A lane gives its place back after a turn of 32 items while another lane waits for
    /// one, and keeps it while none does.
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
    /// Bodies longer than this many bytes (512 KiB by default), or of unknown length, are kept in files in a folder
    /// beside the database (`outbox.sqlite.bodies/`) instead of in its rows, and read a chunk at a time when sent: a
    /// video waits in the outbox without passing through memory. An outbox in the app's own in-memory database keeps
    /// every body in its rows. A body in a file is sent as it is: ``OutboxBinding`` placeholders are bound into its
    /// item's path, query and headers, not into the file.
    public var fileBodyThreshold = 512 * 1024
    /// The identifier of a background `URLSession` for items whose body is in a file (see ``fileBodyThreshold``), on
    /// Apple platforms: such an item is handed to an upload the system carries on while the app is suspended, and its
    /// lane waits for the outcome, which is recorded when it comes — after a relaunch too, through
    /// ``Outbox/handleEventsForBackgroundURLSession(_:completionHandler:)``. `nil` (the default) sends every item in
    /// the foreground, as it does on Linux, where there are no background sessions.
    ///
    /// URLSession follows redirects in a background session itself, without asking Courier, up to its own limit;
    /// which headers it keeps across one is not documented (it is reported to drop `Authorization`, and a 301, 302
    /// or 303 may turn the upload into a GET). An outbox whose client follows no redirects, or removes more headers
    /// across origins than credentials, cannot keep that policy and throws ``OutboxError/Kind/invalidRequest`` when
    /// it is made with an identifier; with the default policy, give the background uploads an endpoint that answers
    /// them rather than one that redirects.
    public var backgroundSessionIdentifier: String?
    /// The system whose background sessions carry the uploads of ``backgroundSessionIdentifier``: `nil` (the
    /// default) for the platform's own — background `URLSession`s on Apple platforms, none elsewhere — or
    /// `BackgroundSystemSimulator` of CourierTesting, which ends and relaunches a simulated app and delivers its
    /// session's events as a seeded schedule says.
    public var backgroundSystem: (any BackgroundSystem)?
    /// Whether the app was launched in the background: the outbox then starts no attempt until the app becomes
    /// active (or ``drainUntilDone()`` gives it background time). `false`: an app learns of a background launch from
    /// ``Outbox/handleEventsForBackgroundURLSession(_:completionHandler:)``, which stops attempts until then.
    package var startsInBackground = false
    /// Whether the outbox runs in an app extension, which shares its app's database but not its background session:
    /// it does not take the app's uploads it cannot see for lost.
    package var isAppExtension = Outbox.runsInAppExtension
    /// The network: the outbox sends while it reports a usable path, and starts sending when one comes.
    public var monitor: NetworkMonitor = .system
    /// The clock of backoffs, ages and constraints.
    public var clock: any CallClock = SystemCallClock()
    /// The kinds and versions this app handles; an item of another is quarantined at start. `nil` accepts all.
    public var kinds: Set<Kind>?
    /// Whether the outbox follows the app's lifecycle: it sends what waits when the app comes to the foreground (or,
    /// on macOS, becomes active), and asks the system for time to finish the attempts in flight when the app leaves
    /// it (`performExpiringActivity`). Once the app was launched in the background for its background session's
    /// events (``Outbox/handleEventsForBackgroundURLSession(_:completionHandler:)``), nothing is sent until the app
    /// comes to the foreground. `false`: the outbox takes the app to be in the background only during a background
    /// task it was launched for (`drain(in:)`), and sends again once the task ended; otherwise the app stops and
    /// starts it.
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
