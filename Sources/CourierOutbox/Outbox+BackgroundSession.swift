import Courier
import Foundation
import HTTPTypes

// The Apple glue of background uploads, a few lines each; the logic they call is in BackgroundUploads.swift.

extension Outbox {
  /// Whether this platform has background URLSessions.
  static var hasBackgroundSessions: Bool {
    #if canImport(Darwin)
    true
    #else
    false
    #endif
  }

  /// The background URLSession uploader of `identifier`, on Apple platforms; `nil` elsewhere.
  /// An app extension gets none: its background session would need a shared container, and the system ends the
  /// extension long before such uploads do; its large bodies are sent in the foreground.
  static func systemBackgroundUploader(identifier: String, outbox: Outbox) -> (any BackgroundUploader)? {
    #if canImport(Darwin)
    guard Bundle.main.bundleURL.pathExtension != "appex" else { return nil }
    return URLSessionBackgroundUploader(identifier: identifier, outbox: outbox)
    #else
    return nil
    #endif
  }
}

#if canImport(Darwin)
/// A background URLSession whose upload tasks carry their item's ID and attempt (``BackgroundTaskTag``) and whose
/// outcomes go to the outbox. One per identifier in a process: URLSession allows one session per background identifier,
/// so an app makes one outbox with a given `backgroundSessionIdentifier` and keeps it.
final class URLSessionBackgroundUploader: NSObject, BackgroundUploader, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: `session` is set once, in init, before any delegate call can read it; the answers' bytes are behind
  // `bodies`' lock.
  private var session: URLSession?
  private let bodies = Locked([Int: Data]())
  private weak var outbox: Outbox?

  init(identifier: String, outbox: Outbox) {
    self.outbox = outbox
    super.init()
    let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
    configuration.sessionSendsLaunchEvents = true
    // Cookies are Courier's: the request carries them; the session keeps none of its own.
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
  }

  func upload(_ request: HTTPRequest, fromFile file: URL, item: OutboxItem.ID, attempt: Int) async throws {
    guard let session, var urlRequest = URLSessionTransport.urlRequest(for: request, timeout: 60) else {
      throw OutboxError(.invalidRequest, "The request of item \(item) has no URL")
    }
    // URLSession sets the length of the file itself; the header is one it reserves.
    urlRequest.setValue(nil, forHTTPHeaderField: "Content-Length")
    let task = session.uploadTask(with: urlRequest, fromFile: file)
    task.taskDescription = BackgroundTaskTag.description(for: item, attempt: attempt)
    task.resume()
  }

  func itemsInFlight() async -> Set<OutboxItem.ID> {
    guard let session else { return [] }
    return Set(await session.allTasks.compactMap { BackgroundTaskTag.item(from: $0.taskDescription)?.item })
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    bodies.withLock { $0[dataTask.taskIdentifier, default: Data()].append(data) }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let body = bodies.withLock { $0.removeValue(forKey: task.taskIdentifier) } ?? Data()
    guard let (item, attempt) = BackgroundTaskTag.item(from: task.taskDescription), let outbox else { return }
    let outcome: BackgroundUploadOutcome
    if let error {
      outcome = .failed(CourierError(transportFailure: error, request: nil))
    } else if let response = task.response as? HTTPURLResponse,
      response.value(forHTTPHeaderField: "Content-Encoding") == nil, Int64(body.count) < task.countOfBytesReceived
    {
      // The app was ended while the answer came in: part of it is lost. Sent again with its key, the server answers
      // with the whole stored answer.
      outcome = .failed(
        OutboxError(
          .storeFailure,
          "The answer to item \(item)'s background upload was cut (\(body.count) of \(task.countOfBytesReceived) bytes)"
        ))
    } else if let response = task.response,
      let head = try? URLSessionTransport.head(
        of: response, request: HTTPRequest(method: .post, scheme: nil, authority: nil, path: nil))
    {
      outcome = .answered(head, body)
    } else {
      outcome = .failed(OutboxError(.storeFailure, "The background upload of item \(item) ended without a response"))
    }
    // Counted before the delegate returns, so that the session's last event cannot call the app's handler first.
    outbox.backgroundEvents.recordingBegan()
    Task {
      await outbox.backgroundUploadFinished(item, attempt: attempt, outcome)
      outbox.backgroundEvents.recordingEnded()
    }
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    outbox?.backgroundEvents.eventsDelivered()
  }
}
#endif
