import Foundation

/// `count` bytes where byte `i` is `i * step + offset` (mod 256), built from one 256-byte period.
///
/// Mapping a range of millions of integers one by one takes seconds in a debug build and holds one of the two
/// threads of the cooperative pool while it runs; repeating the period takes milliseconds.
public func patternData(count: Int, step: Int = 31, offset: Int = 0) -> Data {
  let period = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* step &+ offset) }
  var data = Data(capacity: max(count, 0))
  while data.count + period.count <= count { data.append(contentsOf: period) }
  data.append(contentsOf: period.prefix(max(count - data.count, 0)))
  return data
}

/// A new file named `name` holding `contents`, in a folder of its own under the temporary directory.
public func temporaryFile(_ contents: Data, name: String = "file.bin") throws -> URL {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-mp-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let url = directory.appendingPathComponent(name)
  try contents.write(to: url)
  return url
}

/// Removes the folder of its own that ``temporaryFile(_:name:)`` made for `file` (or that a test made for a file it
/// writes), with everything in it.
public func removeTemporaryFile(_ file: URL) {
  try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
}
