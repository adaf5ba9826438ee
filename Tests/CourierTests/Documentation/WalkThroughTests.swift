import Foundation
import Testing

/// The walk-through of a call at the top of `Sources/Courier/Pipeline/CallEngine.swift` stays true: every file it
/// names is there, every file of `Pipeline/` is named, and no step of a call calls a function of an earlier step.
@Suite struct WalkThroughTests {
  static let courier = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/Courier")
  static let pipeline = courier.appendingPathComponent("Pipeline")

  /// How each file of `Pipeline/` is entered: what code of a later step would contain if it called back into it.
  static let entries: [String: [String]] = [
    "CallEngine.swift": ["perform(", "nextCallID("],
    "Call.swift": ["Call(engine:", "failure(from:", "waitForMinimumDuration(", "finish(response:"],
    "CallContext.swift": ["CallContext(attributes:"],
    "EventSink.swift": ["EventSink("],
    "CallClock.swift": ["SystemCallClock("],
    "CallEngine+Request.swift": ["makeRequest(", "encoder(for:"],
    "RequestTarget.swift": ["RequestTarget("],
    "Deadline.swift": ["Deadline.run(", "Deadline.Activity(", "Deadline.idleExpiry("],
    "DeadlineTimer.swift": ["register(timeout:", "unregister(", "DeadlineTimer("],
    "InterceptorChain.swift": ["chain(ending:"],
    "CallEngine+Exchange.swift": ["chain(_", "observed(", "exchange("],
    "CleartextPolicy.swift": ["CleartextPolicy(", "refusal(of:"],
    "SentSignal.swift": ["SentSignal(", "whenFired("],
    "TransportOptions.swift": ["TransportOptions("],
    "CallEngine+Response.swift": ["collect(", "decoder(for:", ".decode(", "unacceptable(", "decodeServerError("],
    "ResponseDecoding.swift": ["ResponseDecoding."],
  ]

  /// The files the walk-through names, relative to `Sources/Courier`, each with the step that names it first (`-1`
  /// before the first step: the call's state, which every step reads).
  static func named() throws -> [(file: String, step: Int)] {
    let source = try String(contentsOf: pipeline.appendingPathComponent("CallEngine.swift"), encoding: .utf8)
    let comment = source.split(separator: "\n", omittingEmptySubsequences: false)
      .drop { !$0.hasPrefix("// # A call") }.prefix { $0.hasPrefix("//") }
    var step = -1
    var named: [(file: String, step: Int)] = []
    for line in comment {
      let text = line.dropFirst(2).drop { $0 == " " }
      if let dot = text.firstIndex(of: "."), let number = Int(text[..<dot]) { step = number }
      let pieces = line.split(separator: "`", omittingEmptySubsequences: false)
      for (index, piece) in pieces.enumerated() where index % 2 == 1 && piece.hasSuffix(".swift") {
        let file = piece.contains("/") ? String(piece) : "Pipeline/" + piece
        if !named.contains(where: { $0.file == file }) { named.append((file, step)) }
      }
    }
    return named
  }

  @Test func everyFileTheWalkThroughNamesIsThere() throws {
    let named = try Self.named()
    #expect(named.count > 30, "\(named.count) files named")
    for (file, _) in named {
      #expect(
        FileManager.default.fileExists(atPath: Self.courier.appendingPathComponent(file).path),
        "the walk-through names \(file), which is not in Sources/Courier")
    }
  }

  @Test func everyFileOfThePipelineIsNamedAndHasItsEntries() throws {
    let named = Set(try Self.named().map(\.file))
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.pipeline.path).filter {
      $0.hasSuffix(".swift")
    }
    for file in files {
      #expect(named.contains("Pipeline/" + file), "the walk-through does not name Pipeline/\(file)")
      #expect(Self.entries[file] != nil, "WalkThroughTests.entries does not say how Pipeline/\(file) is entered")
    }
  }

  @Test func noStepCallsAnEarlierOne() throws {
    let steps = try Self.named().filter { $0.file.hasPrefix("Pipeline/") && $0.step >= 0 }
      .map { (file: String($0.file.dropFirst("Pipeline/".count)), step: $0.step) }
    #expect(Set(steps.map(\.step)) == [1, 2, 3, 4, 5, 6], "\(steps)")
    for later in steps {
      let source = try String(contentsOf: Self.pipeline.appendingPathComponent(later.file), encoding: .utf8)
      let code = source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
        .joined(separator: "\n")
      for earlier in steps where earlier.step < later.step {
        for entry in Self.entries[earlier.file] ?? [] {
          let callsBack = code.contains(entry)
          #expect(
            !callsBack,
            "step \(later.step) (\(later.file)) calls back into step \(earlier.step) (\(earlier.file)): \(entry)")
        }
      }
    }
  }
}
