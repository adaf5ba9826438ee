import Testing

@testable import Courier

@Suite(.timeLimit(.minutes(1))) struct TaskMemoryTests {
  @Test func aTaskThatReservedRoomRunsDeepAsyncCallsAndReturnsTheirResult() async throws {
    let depth = try await Task {
      await TaskMemory.reserve()
      return try await Self.descend(200)
    }.value
    #expect(depth == 200)
  }

  @Test func reservingTwiceOrInsideAChildTaskIsHarmless() async {
    await TaskMemory.reserve()
    await TaskMemory.reserve()
    let sums = await withTaskGroup(of: Int.self) { group in
      for value in 1...4 {
        group.addTask {
          await TaskMemory.reserve()
          return (try? await Self.descend(value * 10)) ?? -1
        }
      }
      return await group.reduce(0, +)
    }
    #expect(sums == 100)
  }

  @Test func theBlockIs24KiB() {
    #expect(MemoryLayout<TaskMemory.Block>.size == 24 << 10)
  }

  /// An async recursion `levels` deep, each frame holding a little state across a suspension point.
  private static func descend(_ levels: Int) async throws -> Int {
    guard levels > 0 else { return 0 }
    let marker = [levels]
    try await Task.sleep(nanoseconds: 0)
    return try await descend(levels - 1) + marker.count
  }
}
