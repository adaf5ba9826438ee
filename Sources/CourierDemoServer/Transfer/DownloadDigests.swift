#if canImport(Hummingbird)
/// The SHA-256 of each `/download/{bytes}` body asked for, computed once per size and shared by every server (the
/// bodies never change).
@available(macOS 14, iOS 17, tvOS 17, *)
actor DownloadDigests {
  /// The cache every server uses.
  static let shared = DownloadDigests()

  private var digests: [Int64: Task<String, Never>] = [:]

  /// The digest of the `length`-byte body; concurrent requests for one size share one computation, which goes on
  /// (and is kept) even if the requests that asked for it go away.
  func digest(length: Int64) async -> String {
    if let task = digests[length] {
      return await task.value
    }
    let task = Task.detached(priority: .utility) { await DownloadPattern.sha256(length: length) }
    digests[length] = task
    return await task.value
  }
}
#endif
