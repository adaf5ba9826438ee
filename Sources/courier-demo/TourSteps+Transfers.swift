import Courier
import CourierStyles
import Foundation
import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tour's transfer steps: an upload with a progress bar, a JSON Lines stream, server-sent events and a resumed
/// download.
@available(macOS 14, iOS 17, tvOS 17, *)
extension TourSteps {
  func runTransferSteps() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tour-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    step("A multipart upload of a 24 MiB file, with a progress bar")
    let video = folder.appendingPathComponent("holiday.mp4")
    try Data((0..<24 * 1024 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: video)
    var form = MultipartFormData()
    form.append("Holiday", name: "title")
    form.append(fileAt: video, name: "video")
    let upload = client.transfer(Endpoint<TourUploadReport>.post("/upload").body(.multipart(form)))
    let bar = ProgressBar()
    for await progress in upload.uploadProgress { bar.show(progress) }
    bar.end()
    let report = try await upload.value
    for part in report.parts {
      print(
        "  \(part.name): \(part.filename ?? part.value ?? "") \(part.size) bytes, sha256 \(part.sha256.prefix(12))…")
    }

    step("A JSON Lines stream, read line by line as the server sends it")
    let stream = try await client.stream(Endpoint<Data>.get("/stream/lines").query(["count": 4, "delay": 150]))
    let started = Date()
    for try await line in stream.jsonLines(of: TourLine.self) {
      print(String(format: "  +%.2f s  #%d %@", Date().timeIntervalSince(started), line.index, line.text))
    }

    step("Server-sent events: the server drops the connection every 2 events; Courier resumes with Last-Event-ID")
    let events = client.events(
      Endpoint<Data>.get("/stream/events").query(["count": 5, "drop": 2, "retry": 100, "delay": 100]),
      of: TourLine.self)
    do {
      for try await event in events { print("  event \(event.index): \(event.text)") }
    } catch let error as CourierError where error.status == .noContent {
      print("  the server answered 204 No Content: the stream is over, and Courier stops reconnecting")
    }

    step("A 16 MiB download whose connection drops after 4 MB, resumed with Range + If-Range")
    let size = 16 * 1024 * 1024
    let digest = try await client.value(Endpoint<TourDigest>.get("/download/sha256/\(size)"))
    let downloadBar = ProgressBar()
    let result = try await client.download(
      Endpoint<Data>.get("/download/\(size)/drop").query(["key": .string(UUID().uuidString), "after": 4_000_000])
        .onDownloadProgress { downloadBar.show($0) },
      to: folder.appendingPathComponent("archive.bin"), sha256: digest.sha256)
    downloadBar.end()
    let resumed = result.resumptions.map { "byte \($0)" }.joined(separator: ", ")
    print("  \(result.attempts) requests; the connection dropped and the download resumed at \(resumed)")
    print("  \(result.bytes) bytes, SHA-256 verified: \(result.sha256?.prefix(16) ?? "-")…, moved into place")
  }
}

/// A progress bar on one terminal line (redrawn with `\r`), or a line per quarter when the output is not a terminal.
@available(macOS 14, iOS 17, tvOS 17, *)
final class ProgressBar: Sendable {
  /// The last quarter a non-terminal progress bar printed.
  private let lastQuarter = Locked(-1)
  private let isTerminal = isatty(STDOUT_FILENO) != 0

  /// Whether `quarter` was not printed yet; it is from now on.
  private func passQuarter(_ quarter: Int) -> Bool {
    lastQuarter.withLock { last in
      guard quarter > last else { return false }
      last = quarter
      return true
    }
  }

  func show(_ progress: TransferProgress) {
    guard let fraction = progress.fraction else { return }
    let width = 30
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
    let line = "  [\(bar)] \(Int(fraction * 100))%  \(progress.completedBytes / 1024) KiB"
    if isTerminal {
      print("\r" + line, terminator: "")
      fflush(nil)
    } else if passQuarter(Int(fraction * 4)) {
      print(line)
    }
  }

  func end() {
    if isTerminal { print("") }
  }
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct TourUploadReport: Decodable, Sendable {
  struct Part: Decodable, Sendable {
    var name: String
    var filename: String?
    var value: String?
    var size: Int
    var sha256: String
  }
  var parts: [Part]
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct TourLine: Decodable, Sendable {
  var index: Int
  var text: String
}

@available(macOS 14, iOS 17, tvOS 17, *)
struct TourDigest: Decodable, Sendable {
  var sha256: String
}
