import Foundation
import HTTPTypes

/// What the system gives an app for work that goes on in the background: upload sessions whose tasks outlive the app
/// (background `URLSession`s on Apple platforms), and time to finish work as the app leaves the foreground.
///
/// Code written against this protocol runs on a device over the system, and in tests over `BackgroundSystemSimulator`
/// of CourierTesting, which ends the app, relaunches it and delivers, delays or reorders its sessions' events as a
/// seeded schedule says.
public protocol BackgroundSystem: Sendable {
  /// Makes the session of `identifier`, to which the system delivers the events of its tasks — those started before
  /// the app was last ended too — through `delegate`, which the session holds until it is invalidated.
  ///
  /// A process has one session per identifier: making another while one is valid throws
  /// ``CourierError/Kind-swift.struct/invalidRequest``.
  func makeSession(identifier: String, delegate: any BackgroundSessionDelegate) throws -> any BackgroundSession

  /// Asks for time to finish work that is under way; `expired` is called once, shortly before the time is up: it
  /// stops the work under way, and the app must start no more. The system waits for it to return before it suspends
  /// the app — on a device briefly (the outbox allows it a second): a file or database still being written to
  /// then is what the system ends an app for. Call the returned closure when the work is done (calling it again does
  /// nothing).
  func beginBackgroundTime(reason: String, expired: @escaping @Sendable () async -> Void) -> @Sendable () -> Void
}

/// A session of background tasks, reached again by its identifier after the app was ended and relaunched.
public protocol BackgroundSession: AnyObject, Sendable {
  /// The session's identifier.
  var identifier: String { get }

  /// Whether the session still delivers its events: `false` once it was invalidated and let go of its delegate.
  var isValid: Bool { get }

  /// Starts uploading `upload.file` with `upload.request`; returns once the system holds the task, which goes on
  /// without the app. The system reads the file when the task is made.
  func upload(_ upload: BackgroundUpload) throws

  /// The descriptions of the tasks the system still runs (or waits to run) for this session; a task that ended is not
  /// listed, also when its end was not delivered yet.
  func runningTaskDescriptions() async -> [String]

  /// Invalidates the session once its tasks ended: until then it stays valid and delivers their events; then the
  /// delegate is released and another session may be made with the identifier.
  func finishTasksAndInvalidate()
}

/// An upload for a ``BackgroundSession``.
public struct BackgroundUpload: Sendable {
  /// The request, headers included; its body is ``file``.
  public var request: HTTPRequest
  /// The file sent as the body.
  public var file: URL
  /// What the app names the task by (`URLSessionTask.taskDescription`), to tell its end apart after a relaunch.
  public var taskDescription: String
  /// Whether the upload may use an expensive network (cellular, a personal hotspot).
  public var allowsExpensiveNetworkAccess: Bool
  /// Whether the upload may use a network in Low Data Mode.
  public var allowsConstrainedNetworkAccess: Bool

  /// An upload of `file` with `request`, named `taskDescription`, on any network unless told otherwise.
  public init(
    request: HTTPRequest, file: URL, taskDescription: String, allowsExpensiveNetworkAccess: Bool = true,
    allowsConstrainedNetworkAccess: Bool = true
  ) {
    self.request = request
    self.file = file
    self.taskDescription = taskDescription
    self.allowsExpensiveNetworkAccess = allowsExpensiveNetworkAccess
    self.allowsConstrainedNetworkAccess = allowsConstrainedNetworkAccess
  }
}

/// What came of a background task.
public enum BackgroundTaskOutcome: Sendable {
  /// The server answered, with this head and body.
  case answered(HTTPResponse, Data)
  /// No whole answer came.
  case failed(CourierError)
}

/// Receives the events of a ``BackgroundSession``, on a thread of the system's.
public protocol BackgroundSessionDelegate: AnyObject, Sendable {
  /// The server-trust policy the session's servers are checked against (roots and pins); ``ServerTrustPolicy/system``
  /// for the system's own evaluation. A server that fails it ends the task with a
  /// ``CourierError/Kind-swift.struct/tls`` error before the request is sent.
  var serverTrustPolicy: ServerTrustPolicy { get }

  /// The task named `taskDescription` ended with `outcome`.
  func backgroundSession(
    _ session: any BackgroundSession, taskNamed taskDescription: String, didFinishWith outcome: BackgroundTaskOutcome)

  /// Every event the system held for the session was delivered: after a relaunch for the session's events, the app
  /// may call the handler it was given once what it does with them is done.
  func backgroundSessionDidFinishEvents(_ session: any BackgroundSession)
}
