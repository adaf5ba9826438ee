import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct ConcurrencyProbeTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func sequentialProbesSeeOnlyThemselves() async throws {
    try await TestSupport.withRouter { client in
      for _ in 0..<3 {
        let response = try await client.send("/concurrency/probe?ms=0")
        #expect(response.status == .ok)
        #expect(try response.decode(ProbeReport.self) == ProbeReport(inFlight: 1, maxInFlight: 1))
      }
      #expect(try await client.send("/admin/stats").decode(Stats.self).maxInFlight == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func concurrentProbesRaiseTheMaximum() async throws {
    try await TestSupport.withRouter { client in
      let reports = try await withThrowingTaskGroup(of: ProbeReport.self) { group in
        for _ in 0..<10 {
          group.addTask { try await client.send("/concurrency/probe?ms=400").decode(ProbeReport.self) }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(reports.count == 10)
      let maximum = try #require(reports.map(\.maxInFlight).max())
      #expect((2...10).contains(maximum))
      #expect(reports.allSatisfy { (1...10).contains($0.inFlight) && $0.inFlight <= $0.maxInFlight })
      let stats = try await client.send("/admin/stats").decode(Stats.self)
      #expect(stats.maxInFlight == maximum)
      // All probes have left: a new one is alone again.
      let after = try await client.send("/concurrency/probe?ms=0").decode(ProbeReport.self)
      #expect(after == ProbeReport(inFlight: 1, maxInFlight: maximum))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func probeWaits() async throws {
    try await TestSupport.withRouter { client in
      let clock = ContinuousClock()
      var start = clock.now
      _ = try await client.send("/concurrency/probe?ms=150")
      #expect(clock.now - start >= .milliseconds(150))
      start = clock.now
      _ = try await client.send("/concurrency/probe")
      #expect(clock.now - start >= .milliseconds(ConcurrencyRoutes.defaultMilliseconds))
      // Larger values are capped at 2 s: the probe waits that long, and not the 16 minutes asked for, which would
      // take longer than a call that counts as hung.
      start = clock.now
      #expect(try await client.send("/concurrency/probe?ms=999999").status == .ok)
      let capped = clock.now - start
      #expect(capped >= .milliseconds(ConcurrencyRoutes.maxMilliseconds) && capped < .seconds(TestSupport.hangSeconds))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: ["ms=-1", "ms=abc", "ms=", "ms=1.5", "ms=99999999999999999999"])
  func badMillisecondsAre400(query: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/concurrency/probe?\(query)")
      #expect(response.status == .badRequest)
      #expect(try response.errorBody().parameter == "ms")
      #expect(try await client.send("/admin/stats").decode(Stats.self).maxInFlight == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func liveURLSessionRunsProbesConcurrently() async throws {
    try await TestSupport.withLiveServer { server in
      let url = try TestSupport.url("/concurrency/probe?ms=400", on: server)
      let session = URLSession(configuration: .ephemeral)
      defer { session.finishTasksAndInvalidate() }
      let reports = try await withThrowingTaskGroup(of: ProbeReport.self) { group in
        for _ in 0..<10 {
          group.addTask {
            let (data, _) = try await session.data(from: url)
            return try JSONDecoder().decode(ProbeReport.self, from: data)
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      let maximum = try #require(reports.map(\.maxInFlight).max())
      #expect((2...10).contains(maximum))
    }
  }
}
