import Courier
import CourierAsyncHTTPClient
import CourierCombine
import CourierObservability
import CourierOpenAPI
import CourierOutbox
import CourierSQLiteCache
import CourierStyles
import CourierTesting
import Foundation
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// Every library imported beside Combine (OpenCombine on Linux, which declares the same names) and Swift Testing, as
/// an app's view file or test file does: Courier's names resolve without a module prefix, and so do theirs.
@Suite(.timeLimit(.minutes(10))) struct NameClashTests {
  struct Upload: Encodable, Sendable {
    var title: String
    var file: MultipartFile
  }

  @Test func courierNamesResolveBesideCombineAndTesting() throws {
    let deletion = Endpoint<EmptyBody>.delete("/posts/1")
    let query: QueryParameters = ["page": 2, "tags": ["a", "b"]]
    let listing = Endpoint<EmptyBody>.get("/posts", query: query)
    let upload = Upload(title: "Hi", file: MultipartFile(data: Data("x".utf8), fileName: "x.txt"))
    let form = try MultipartFormData(encoding: upload)
    // Combine's own `Empty`, unqualified, in the same file.
    let nothing = Empty<Int, Never>()
    var received: [Int] = []
    let cancellable = nothing.sink { received.append($0) }
    cancellable.cancel()
    #expect(received.isEmpty)
    #expect(try JSONDecoder().decode(EmptyBody.self, from: Data("{}".utf8)) == EmptyBody())
    #expect(query.count == 2)
    _ = (deletion, listing, form)
  }
}
