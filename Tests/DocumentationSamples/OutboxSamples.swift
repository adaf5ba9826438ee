// The code samples of the outbox's articles, compiled (see CourierTestingSamples.swift).
import Courier
import CourierOutbox
import Foundation

#if canImport(UIKit)
import UIKit
#endif

#if canImport(BackgroundTasks) && (os(iOS) || os(tvOS) || os(visionOS))
import BackgroundTasks
#endif

enum OfflineWritesSamples {
  /// A post written offline.
  struct Post: Codable, Sendable {
    var title: String
  }

  /// OfflineWrites.md's first sample.
  static func enqueue(client: APIClient, draft: Post) async throws {
    let outbox = try Outbox(client: client, path: Outbox.defaultPath())
    let id = try await outbox.enqueue(Endpoint<Post>.post("/posts", body: draft), lane: "posts")
    let waiting = try await outbox.pendingCount()  // "3 changes waiting"
    _ = (id, waiting)
  }
}

enum OfflineWritesAppSamples {
  struct Post: Codable, Sendable {
    var title: String
  }

  /// OfflineWrites.md: values from an earlier answer.
  static func bindings(outbox: Outbox, draft: Post, jpeg: Data) async throws {
    let post = try await outbox.enqueue(Endpoint<Post>.post("/posts", body: draft), lane: "posts")
    try await outbox.enqueue(
      Endpoint<Data>.put("/posts/{id}/image").body(jpeg), lane: "posts", after: post,
      bindings: [.json("id", at: "/id")])
  }

  /// OfflineWrites.md: results after a relaunch.
  static func handlers(outbox: Outbox) async {
    await outbox.handleResults(ofKind: "post") { result in
      guard result.isDelivered, let saved = try? result.decode(Post.self) else { return }
      print("saved", saved.title)
    }
  }

  #if canImport(BackgroundTasks) && (os(iOS) || os(tvOS) || os(visionOS))
  /// OfflineWrites.md: a background processing task.
  static func backgroundTask(outbox: Outbox) {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.outbox", using: .main) { task in
      outbox.drain(in: task)
    }
  }
  #endif
}

#if canImport(UIKit) && !os(watchOS)
/// OfflineWrites.md: large bodies, a background session's events after a relaunch.
final class OutboxSampleAppDelegate: NSObject, UIApplicationDelegate {
  let outbox: Outbox

  init(outbox: Outbox) {
    self.outbox = outbox
  }

  func application(
    _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {
    if !outbox.handleEventsForBackgroundURLSession(identifier, completionHandler: completionHandler) {
      // Another session's events: its owner calls the handler (here, none does).
      completionHandler()
    }
  }
}
#endif
