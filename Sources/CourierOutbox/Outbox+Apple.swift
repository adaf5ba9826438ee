import Courier
import Foundation

// The Apple glue of the outbox, a few lines each; the logic they call is in Outbox+App.swift.

/// The protection and backup exclusion of the folder of an outbox database.
enum AppStorage {
  /// Best effort: a file system that cannot take an attribute leaves the outbox working.
  static func protect(_ folder: URL) {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    // Files made in the folder later (the database's -wal and -shm) take the folder's class; files already there
    // keep theirs, so they are set too.
    let protection: [FileAttributeKey: Any] = [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication]
    try? FileManager.default.setAttributes(protection, ofItemAtPath: folder.path)
    let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in existing where name.hasPrefix("outbox.sqlite") {
      try? FileManager.default.setAttributes(protection, ofItemAtPath: folder.appendingPathComponent(name).path)
    }
    #endif
    #if canImport(Darwin)
    var folder = folder
    var values = URLResourceValues()
    values.isExcludedFromBackup = true
    try? folder.setResourceValues(values)
    #endif
  }
}

/// Watches the app coming to the foreground and leaving it, for as long as it lives.
final class AppLifecycleObserver: @unchecked Sendable {
  // @unchecked: `tokens` and `center` are written once, in init, and read once, in deinit.
  private let tokens: [any NSObjectProtocol]
  private let center: NotificationCenter

  /// The notifications' names, spelled out so that they are observed without UIKit, AppKit or WatchKit and without
  /// isolating to the main actor: `UIApplication.willEnterForegroundNotification`,
  /// `NSApplication.didBecomeActiveNotification` and `WKApplication.willEnterForegroundNotification`.
  /// An app extension hears its host's: `NSExtensionHostWillEnterForeground`.
  static let foreground: [Notification.Name] = [
    Notification.Name("UIApplicationWillEnterForegroundNotification"),
    // At a launch by the user, the app becomes active without entering the foreground.
    Notification.Name("UIApplicationDidBecomeActiveNotification"),
    Notification.Name("NSApplicationDidBecomeActiveNotification"),
    Notification.Name("WKApplicationWillEnterForegroundNotification"),
    Notification.Name("NSExtensionHostWillEnterForegroundNotification"),
  ]
  /// `UIApplication.didEnterBackgroundNotification`, `WKApplication.didEnterBackgroundNotification` and
  /// `NSExtensionHostDidEnterBackground`.
  static let background: [Notification.Name] = [
    Notification.Name("UIApplicationDidEnterBackgroundNotification"),
    Notification.Name("WKApplicationDidEnterBackgroundNotification"),
    Notification.Name("NSExtensionHostDidEnterBackgroundNotification"),
  ]

  init(outbox: Outbox, center: NotificationCenter) {
    var tokens: [any NSObjectProtocol] = []
    for name in Self.foreground {
      tokens.append(
        center.addObserver(forName: name, object: nil, queue: nil) { [weak outbox] _ in
          Task { await outbox?.appBecameActive() }
        })
    }
    for name in Self.background {
      tokens.append(
        // The time is asked for before the handler returns: the system suspends the app shortly after.
        center.addObserver(forName: name, object: nil, queue: nil) { [weak outbox] _ in
          guard let outbox else { return }
          outbox.leaveForeground()
        })
    }
    self.tokens = tokens
    self.center = center
  }

  deinit {
    for token in tokens { center.removeObserver(token) }
  }
}

/// Time to finish work as the app leaves the foreground: `performExpiringActivity`, which apps and their extensions
/// may call on iOS, tvOS, watchOS and visionOS. Elsewhere (macOS does not suspend an app that leaves the foreground)
/// the time never runs out.
enum BackgroundTime {
  /// Begins the activity; `expired` is called when the time is up. The returned closure ends it.
  static func begin(reason: String, expired: @escaping @Sendable () async -> Void) -> @Sendable () -> Void {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    let done = DispatchSemaphore(value: 0)
    // The block runs on a queue of the system's, not on Swift's shared pool: it holds the activity until the work is
    // done, and is called again with `expired` when the time is up.
    ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { isExpired in
      if isExpired {
        // The app is suspended once this block returns: the work in flight is stopped first, for a second at most.
        let stopped = DispatchSemaphore(value: 0)
        Task {
          await expired()
          stopped.signal()
        }
        _ = stopped.wait(timeout: .now() + 1)
        done.signal()
      } else {
        done.wait()
      }
    }
    return { done.signal() }
    #else
    return {}
    #endif
  }
}

extension Outbox {
  /// The app left the foreground: the time is asked for now, before the notification's handler returns (the system
  /// suspends the app shortly after); attempts stop starting, and those in flight finish in that time.
  nonisolated func leaveForeground() {
    let end = backgroundTimeSystem.beginBackgroundTime(reason: "Finishing the outbox's sends in flight") {
      [weak self] in await self?.backgroundTimeExpired()
    }
    Task { await finishInBackground(then: end) }
  }

  /// What gives the app background time: ``Configuration/backgroundSystem``, else the platform's (also in an app
  /// extension, which has no background session of its own but may ask for time).
  nonisolated var backgroundTimeSystem: any BackgroundSystem {
    #if canImport(Darwin)
    configuration.backgroundSystem ?? URLSessionBackgroundSystem()
    #else
    configuration.backgroundSystem ?? NoBackgroundTime()
    #endif
  }
}

/// A platform without background sessions: its background time never runs out.
struct NoBackgroundTime: BackgroundSystem {
  func makeSession(identifier: String, delegate: any BackgroundSessionDelegate) throws -> any BackgroundSession {
    throw CourierError(.invalidRequest, "This platform has no background sessions")
  }

  func beginBackgroundTime(reason: String, expired: @escaping @Sendable () async -> Void) -> @Sendable () -> Void {
    {}
  }
}

#if canImport(BackgroundTasks) && (os(iOS) || os(tvOS) || os(visionOS))
import BackgroundTasks

extension Outbox {
  /// Drains the outbox within a background task the system launched — a `BGProcessingTask` that requires network
  /// connectivity — and completes it: successfully once nothing waits, unsuccessfully when items remain that cannot
  /// go now or its time ran out.
  ///
  /// ```swift
  /// BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.outbox", using: .main) { task in
  ///   outbox.drain(in: task)
  /// }
  /// ```
  public nonisolated func drain(in task: BGTask) {
    let box = BackgroundTaskBox(task)
    let drain = Task {
      await self.beganBackgroundTask()
      box.task.setTaskCompleted(success: await self.drainUntilDone())
    }
    task.expirationHandler = {
      // No attempt starts from now on, and those in flight are cut; the task is completed once they were, a second at
      // most: the system suspends the app shortly after, and ends one whose task is not completed in time.
      Task {
        await self.backgroundTimeExpired()
        drain.cancel()
      }
      Task {
        try? await Task.sleep(for: .seconds(1))
        drain.cancel()
      }
    }
  }
}

/// A system background task, carried to the task that completes it.
final class BackgroundTaskBox: @unchecked Sendable {
  // @unchecked: `task` is only used to call `setTaskCompleted(success:)`, which may be called from any thread.
  let task: BGTask
  init(_ task: BGTask) { self.task = task }
}
#endif
