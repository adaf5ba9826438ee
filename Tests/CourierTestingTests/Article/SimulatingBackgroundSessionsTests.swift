import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// The sample of the article "Simulating background sessions", run: an app's photo upload ends once, whatever the
/// schedule does to the app.
@Suite struct SimulatingBackgroundSessionsTests {
  /// What the app records of its uploads' ends (a database, in an app).
  final class UploadLog: Sendable {
    private let ends = Locked([String]())
    var ended: [String] { ends.withLock { $0 } }
    func append(_ name: String) { ends.withLock { $0.append(name) } }
  }

  /// The app's uploader: it makes its session when the app launches, and records each upload's end.
  final class PhotoUploader: BackgroundSessionDelegate {
    let serverTrustPolicy = ServerTrustPolicy.system
    let log: UploadLog
    private let session: Locked<(any BackgroundSession)?> = Locked(nil)

    init(system: any BackgroundSystem, log: UploadLog) throws {
      self.log = log
      let made = try system.makeSession(identifier: "com.example.photos", delegate: self)
      session.withLock { $0 = made }
    }

    func upload(_ file: URL) throws {
      let request = HTTPRequest(method: .put, scheme: "https", authority: "photos.example", path: "/photos/1")
      try session.withLock { $0 }?.upload(BackgroundUpload(request: request, file: file, taskDescription: "photo-1"))
    }

    func backgroundSession(
      _ session: any BackgroundSession, taskNamed taskDescription: String, didFinishWith outcome: BackgroundTaskOutcome
    ) {
      log.append(taskDescription)
    }

    func backgroundSessionDidFinishEvents(_ session: any BackgroundSession) {}
  }

  static let photo: URL = {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-photo-\(UUID()).jpg")
    try? Data(repeating: 7, count: 1000).write(to: file)
    return file
  }()

  @Test(arguments: 0..<100 as Range<UInt64>)
  func everyUploadEndsOnceWhateverTheSchedule(seed: UInt64) async throws {
    let system = BackgroundSystemSimulator(seed: seed) { request, body in
      (HTTPResponse(status: .created), Data())
    }
    let log = UploadLog()
    var app = try PhotoUploader(system: system, log: log)
    try app.upload(Self.photo)
    for _ in 0..<20 {
      switch system.choose(below: 3) {
      case 0: system.step()  // a task reaches the server, or an event is delivered
      case 1:
        system.endApp()  // the app is ended, and launched again
        app = try PhotoUploader(system: system, log: log)
      default: await system.expireBackgroundTime()
      }
    }
    while system.step() {}
    #expect(log.ended == ["photo-1"])
  }
}
