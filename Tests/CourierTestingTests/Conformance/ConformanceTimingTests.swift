import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import CourierTesting

/// The conformance cases' timed checks forgive a stall of the whole process, measured on a thread outside Swift's
/// shared pool, and never a transport that blocks the pool.
@Suite(.hangGuard) struct ConformanceTimingTests {
  // The tests that block the shared pool run in a process of their own (an exit test), so that other tests of this
  // process are not held up by it; the child writes what it saw to its standard error before it fails.

  @Test func aBlockedSharedPoolDoesNotCountTowardsTheSlack() async throws {
    await #expect(processExitsWith: .success) {
      let run = ConformanceRun(transport: StubTransport(), slack: .milliseconds(100))
      _ = await run.timed { await blockTheSharedPool(seconds: 0.3) }
      // The pool's probe could not run while every thread of the pool was held; the thread outside the pool could.
      // The slack is the given one plus the stall of the whole process alone, never the pool's.
      let slack = 0.1 + min(run.processStall, ConformanceRun.stallAllowance)
      guard run.poolStall >= 0.25, run.slack == slack else {
        FileHandle.standardError.write(Data("pool \(run.poolStall) s, slack \(run.slack) s".utf8))
        exit(1)
      }
    }
  }

  @Test func aStallOfTheWholeProcessCountsTowardsTheSlack() async throws {
    let run = ConformanceRun(transport: StubTransport(), slack: .milliseconds(100))
    _ = try await run.timed {
      // A child stops this whole process for 300 ms with SIGSTOP, as a stall of the machine would, then resumes it.
      // (ChildProcess, not Foundation's Process: see ChildProcess.)
      let child = try ChildProcess.start(
        "/bin/sh", ["-c", "kill -STOP \(getpid()); sleep 0.3; kill -CONT \(getpid())"])
      _ = await child.wait()
    }
    #expect(run.processStall >= 0.25, "the thread outside the pool saw no stall: \(run.processStall) s")
    #expect(run.slack >= 0.1 + 0.25)
  }

  /// A machine busy with other processes slows a step without stopping the process: the time its threads waited for
  /// a CPU that another process had counts towards the slack.
  @Test(.enabled(if: canPin)) func timeTheProcessWaitedForACPUCountsTowardsTheSlack() async throws {
    await #expect(processExitsWith: .success) {
      let hog = try sharingOneCPUWithAHog()
      let run = ConformanceRun(transport: StubTransport(), slack: .milliseconds(100))
      // 0.3 s of this thread's own CPU time: the hog, sharing the CPU, keeps it waiting at least about as long.
      let (_, elapsed) = await run.timed { spin(seconds: 0.3) }
      hog.kill()
      guard run.processStall >= 0.15, run.slack == 0.1 + min(run.processStall, ConformanceRun.stallAllowance) else {
        FileHandle.standardError.write(Data("\(elapsed) s, of which \(run.processStall) s forgiven".utf8))
        exit(1)
      }
    }
  }

  /// A step that sleeps waits in no run queue: beside the same hog, its time is not forgiven.
  @Test(.enabled(if: canPin)) func aStepThatSleepsIsNotExcusedByABusyMachine() async throws {
    await #expect(processExitsWith: .success) {
      let hog = try sharingOneCPUWithAHog()
      let run = ConformanceRun(transport: StubTransport(), slack: .milliseconds(100))
      _ = try await run.timed { try await Task.sleep(for: .milliseconds(300)) }
      hog.kill()
      // The sleep waits in no run queue; the probes' own wake-ups beside the hog do, a little each, and are not the
      // step's. Forgiving most of the sleep would excuse a transport that waits.
      guard run.processStall < 0.15 else {
        FileHandle.standardError.write(Data("a sleeping step was forgiven \(run.processStall) s".utf8))
        exit(1)
      }
    }
  }

  @Test func withoutATimedStepTheSlackIsTheOneGiven() {
    #expect(ConformanceRun(transport: StubTransport(), slack: .milliseconds(250)).slack == 0.25)
  }

  @Test func aFailedCheckDuringAStallOfTheProcessIsInconclusive() throws {
    let run = ConformanceRun(transport: StubTransport(), slack: .milliseconds(100))
    run.record(StallMonitor.Stalls(process: 2.5, pool: 2.5))
    #expect(throws: ConformanceRun.Inconclusive.self) { try run.expect(false, "late") }
    // A check that holds is not affected.
    try run.expect(true, "on time")
    #expect(run.slack == 0.1 + ConformanceRun.stallAllowance, "the allowance is capped")
  }

  @Test func aFailedCheckWhileOnlyThePoolStoodStillSaysThePoolWasBlocked() throws {
    let run = ConformanceRun(transport: StubTransport(), slack: .milliseconds(100))
    run.record(StallMonitor.Stalls(process: 0.01, pool: 3.9))
    let failure = #expect(throws: ConformanceRun.PoolHeldUp.self) { try run.expect(false, "late") }
    #expect(failure?.message.contains("blocks the threads of the shared pool") == true, "\(failure?.message ?? "")")
  }

  /// A transport that blocks every thread of Swift's shared pool for 2 s once a response head with a short deadline
  /// has arrived — the most common concurrency bug of a transport — fails the conformance suite, and says why.
  @Test func aTransportThatBlocksTheSharedPoolFails() async throws {
    await #expect(processExitsWith: .success) {
      let name = "A response that never finishes ends at the deadline"
      let conformanceCase = TransportConformance.cases.first { $0.name == name }!
      let transport = PoolBlockingTransport(URLSessionTransport())
      do {
        try await TransportConformance.check(conformanceCase, over: transport, timingSlack: .milliseconds(100))
        FileHandle.standardError.write(Data("passed".utf8))
        exit(1)
      } catch {
        let message = "\(error)"
        guard message.contains("the 0.5 s deadline expired after"),
          message.contains("blocks the threads of the shared pool")
        else {
          FileHandle.standardError.write(Data(message.utf8))
          exit(1)
        }
      }
    }
  }
}

/// Whether this system says how long threads waited in a run queue (a kernel without scheduler statistics writes
/// zeros), and `taskset` can pin them.
private let canPin =
  (try? String(contentsOfFile: "/proc/self/schedstat", encoding: .utf8)).map { !$0.hasPrefix("0 ") } == true
  && FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset")

/// Pins every thread of this process to the first CPU it may run on, and starts a process that keeps that CPU busy
/// beside it; kill the process returned when done.
private func sharingOneCPUWithAHog() throws -> ChildProcess {
  let cpu = String(firstAllowedCPU())
  let pin = try ChildProcess.start(
    "/bin/sh", ["-c", "exec /usr/bin/taskset -a -p -c \(cpu) \(getpid()) >/dev/null"])
  guard pin.waitBlocking() == .exited(0) else { throw CocoaError(.featureUnsupported) }
  // The hog ends when this process does, however that ends (`kill` is the shell's own: no process per turn).
  let hog = try ChildProcess.start(
    "/usr/bin/taskset", ["-c", cpu, "/bin/sh", "-c", "while kill -0 \(getpid()) 2>/dev/null; do :; done"])
  // The hog is running once it has used some CPU time of its own; one that never runs fails the test, not hangs it.
  let stopwatch = Stopwatch()
  while (try? String(contentsOfFile: "/proc/\(hog.pid)/schedstat", encoding: .utf8))
    .flatMap({ $0.split(separator: " ").first.flatMap { UInt64($0) } }) ?? 0 < 5_000_000
  {
    guard stopwatch.elapsed < hangSeconds else {
      hog.kill()
      throw WaitTimedOut(what: "the hog to run", seconds: hangSeconds)
    }
    usleep(1000)
  }
  return hog
}

/// The first CPU this process may run on, as `/proc/self/status` lists them.
private func firstAllowedCPU() -> Int {
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") } ?? ""
  let list = line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
  return Int(list.prefix { $0.isNumber }) ?? 0
}

/// Keeps the calling thread busy until it has had `seconds` of CPU time.
private func spin(seconds: Double) {
  func used() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
  let start = used()
  while used() - start < seconds {}
}

/// Holds every thread of Swift's shared pool for `seconds`: twice as many jobs as processors, each blocking its thread.
private func blockTheSharedPool(seconds: Double) async {
  await withTaskGroup(of: Void.self) { group in
    for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount) {
      group.addTask { usleep(UInt32(seconds * 1e6)) }
    }
  }
}

/// A transport that, once the head of a call with a deadline of 1 s or less has arrived, starts jobs that block every
/// thread of Swift's shared pool for 2 s.
private struct PoolBlockingTransport: HTTPTransport {
  let base: any HTTPTransport

  init(_ base: any HTTPTransport) { self.base = base }

  func send(
    _ request: HTTPRequest, body: BodyStream?, options: TransportOptions
  ) async throws -> (HTTPResponse, BodyStream) {
    let answer = try await base.send(request, body: body, options: options)
    if options.timeout <= 2 {
      for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount) {
        Task.detached { usleep(2_000_000) }
      }
    }
    return answer
  }
}
