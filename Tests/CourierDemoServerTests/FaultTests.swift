import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourierDemoServer

@Suite struct FaultTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [200, 201, 299, 400, 418, 429, 500, 503, 599])
  func statusWithBody(code: Int) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/status/\(code)")
      #expect(response.status.code == code)
      #expect(response.isJSON)
      #expect(try response.errorBody() == ErrorBody(code: "status_\(code)", error: "Status \(code)"))
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func statusWorksForOtherMethods() async throws {
    try await TestSupport.withRouter { client throws in
      #expect(try await client.send("/status/503", method: .post).status == .serviceUnavailable)
      #expect(try await client.send("/status/500", method: .delete).status == .internalServerError)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [204, 304])
  func statusWithoutBody(code: Int) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/status/\(code)")
      #expect(response.status.code == code)
      #expect(response.body.readableBytes == 0)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: ["100", "199", "600", "abc", "-1"])
  func badStatusIs400(code: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/status/\(code)")
      #expect(response.status == .badRequest)
      #expect(try response.errorBody().code == "invalid_parameter")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func slowWaits() async throws {
    try await TestSupport.withRouter { client in
      let clock = ContinuousClock()
      let start = clock.now
      let response = try await client.send("/slow?ms=120")
      #expect(clock.now - start >= .milliseconds(120))
      #expect(response.status == .ok)
      #expect(response.text == #"{"waitedMs":120}"#)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func slowDoesNotBlockOtherRequests() async throws {
    // Which call ends first, not how long it took: the machine may be loaded, the order may not change.
    let first = try await TestSupport.withRouter { client in
      try await withThrowingTaskGroup(of: String.self) { group in
        group.addTask {
          _ = try await client.send("/slow?ms=\(FaultRoutes.maxSlowMilliseconds)")
          return "slow"
        }
        group.addTask {
          try await Task.sleep(for: .milliseconds(50))
          let fast = try await client.send("/products/1")
          #expect(fast.status == .ok)
          return "fast"
        }
        let first = try await group.next()
        group.cancelAll()
        return first
      }
    }
    #expect(first == "fast")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: ["/slow", "/slow?ms=-5", "/slow?ms=soon"])
  func slowRejectsBadInput(uri: String) async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send(uri)
      #expect(response.status == .badRequest)
      #expect(try response.errorBody().parameter == "ms")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func malformedJSON() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/malformed-json")
      #expect(response.status == .ok)
      #expect(response.isJSON)
      #expect(response.text == #"{"id": 1, "name": "#)
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func text() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/text")
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
      #expect(response.text == "Grüße, 世界 👋")
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func empty() async throws {
    try await TestSupport.withRouter { client in
      let response = try await client.send("/empty")
      #expect(response.status == .noContent)
      #expect(response.body.readableBytes == 0)
    }
  }
}
