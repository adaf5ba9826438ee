import CourierTestSupport
import Testing

@testable import Courier

@Suite(.hangGuard) struct LockedTests {
  @Test func updatesFromManyThreadsAtOnceAreNeverLost() async {
    let counter = Locked(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
      }
    }
    #expect(counter.withLock { $0 } == 80_000)
  }

  @Test func copiesShareOneValue() {
    let first = Locked([1])
    let second = first
    second.withLock { $0.append(2) }
    #expect(first.withLock { $0 } == [1, 2])
  }

  @Test func theValueIsReleasedWithTheLastCopy() {
    final class Tracked: Sendable {
      let released: Locked<Bool>
      init(_ released: Locked<Bool>) { self.released = released }
      deinit { released.withLock { $0 = true } }
    }
    let released = Locked(false)
    do {
      let held = Locked<Tracked?>(Tracked(released))
      #expect(held.withLock { $0 != nil })
      #expect(!released.withLock { $0 })
    }
    #expect(released.withLock { $0 })
  }

  @Test func anErrorThrownUnderTheLockLeavesItUnlocked() {
    struct Refused: Error {}
    let value = Locked(1)
    #expect(throws: Refused.self) { try value.withLock { _ in throw Refused() } }
    #expect(value.withLock { $0 } == 1)
  }
}
