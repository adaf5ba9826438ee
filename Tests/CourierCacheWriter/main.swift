// Writes cache entries to a SQLiteCacheStore in a loop until it is killed; the crash test runs it as a child
// process and sends SIGKILL in the middle of a write. Every body is a pattern derived from its key, so the test can
// tell a whole body from a partial one.
import Courier
import CourierSQLiteCache
import Foundation
import HTTPTypes

/// The byte at `index` of the body stored under `key`.
func patternByte(_ key: String, _ index: Int) -> UInt8 {
  UInt8(truncatingIfNeeded: key.utf8.reduce(0) { $0 &+ Int($1) } &+ index)
}

func body(for key: String, size: Int) -> Data {
  Data((0..<size).map { patternByte(key, $0) })
}

struct Chunks: AsyncSequence, Sendable {
  typealias Element = Data
  let key: String
  let size: Int
  let chunk: Int

  struct AsyncIterator: AsyncIteratorProtocol {
    let source: Chunks
    var offset = 0
    mutating func next() async throws -> Data? {
      guard offset < source.size else { return nil }
      let end = Swift.min(offset + source.chunk, source.size)
      defer { offset = end }
      return Data((offset..<end).map { patternByte(source.key, $0) })
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
  FileHandle.standardError.write(Data("usage: CourierCacheWriter <database path>\n".utf8))
  exit(2)
}
let store = try SQLiteCacheStore(
  url: URL(fileURLWithPath: arguments[1]), byteLimit: 64 * 1024 * 1024, chunkSize: 16 * 1024)
var counter = 0
while true {
  counter += 1
  let key = "https://crash.test/\(counter)"
  let size = counter % 3 == 0 ? 1_000_000 + counter : 2_000 + counter
  let head = CachedResponse(
    key: key, variant: [:],
    response: HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=600", .contentLength: "\(size)"]),
    body: Data(), requestTime: Date(), responseTime: Date())
  if size > 100_000 {
    try await store.store(head, bodyChunks: Chunks(key: key, size: size, chunk: 10_000))
  } else {
    var entry = head
    entry.body = body(for: key, size: size)
    try await store.store(entry)
  }
  if counter == 3 {
    FileHandle.standardOutput.write(Data("ready\n".utf8))
  }
}
