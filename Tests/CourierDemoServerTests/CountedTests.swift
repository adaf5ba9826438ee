import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

@Suite struct CountedTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func countsHitsPerKeyWithoutCaching() async throws {
    try await TestSupport.withRouter { client in
      for hit in 1...3 {
        let response = try await client.send("/counted/a")
        #expect(response.status == .ok)
        #expect(response.headers[.cacheControl] == "no-store")
        #expect(try response.decode(CountedHits.self) == CountedHits(key: "a", hits: hit))
      }
      #expect(try await client.send("/counted/b").decode(CountedHits.self).hits == 1)
      let hits = try await client.send("/counted/a/hits")
      #expect(hits.text == #"{"hits":3,"key":"a"}"#)
      #expect(hits.headers[.cacheControl] == "no-store")
      // Reading the count does not count.
      #expect(try await client.send("/counted/a/hits").decode(CountedHits.self).hits == 3)
      #expect(try await client.send("/counted/never/hits").decode(CountedHits.self).hits == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func waitsAndNumbersConcurrentHits() async throws {
    try await TestSupport.withRouter { client in
      let clock = ContinuousClock()
      let start = clock.now
      let hits = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<5 {
          group.addTask { try await client.send("/counted/c?ms=200").decode(CountedHits.self).hits }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(clock.now - start >= .milliseconds(200))
      // Every request that reached the server has its own number.
      #expect(hits.sorted() == [1, 2, 3, 4, 5])
      #expect(try await client.send("/counted/c/hits").decode(CountedHits.self).hits == 5)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func headCountsToo() async throws {
    try await TestSupport.withRouter { client in
      let head = try await client.send("/counted/h", method: .head)
      #expect(head.status == .ok)
      #expect(head.body.readableBytes == 0)
      #expect(try await client.send("/counted/h/hits").decode(CountedHits.self).hits == 1)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: ["ms=-5", "ms=later", "ms="])
  func badMillisecondsAre400AndNotCounted(query: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/counted/bad?\(query)")
      #expect(response.status == .badRequest)
      #expect(try response.errorBody().parameter == "ms")
      #expect(try await client.send("/counted/bad/hits").decode(CountedHits.self).hits == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func longWaitsAreCapped() async throws {
    try await TestSupport.withRouter { client throws in
      let clock = ContinuousClock()
      let start = clock.now
      #expect(try await client.send("/counted/cap?ms=600000").status == .ok)
      let elapsed = clock.now - start
      // The request asked for 600 s; a wait shorter than a call that counts as hung shows the cap, however long the
      // busy suite keeps this call waiting for its turn.
      #expect(elapsed >= .milliseconds(CountedRoutes.maxMilliseconds) && elapsed < .seconds(TestSupport.hangSeconds))
    }
  }
}
