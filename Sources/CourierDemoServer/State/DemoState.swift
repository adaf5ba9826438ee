#if canImport(Hummingbird)
import Foundation

/// Everything one running demo server remembers: accounts, tokens, posts, switches and counters (including the
/// attempts, hits and in-flight probes behind `/flaky`, `/counted` and `/concurrency/probe`, the versions and
/// origin hits behind `/cache`, and the keys `/download/{bytes}/drop` has already dropped).
///
/// Each application built by ``DemoServer`` owns one `DemoState`; nothing is shared between servers.
@available(macOS 14, iOS 17, tvOS 17, *)
actor DemoState {
  /// Lifetime of newly issued access tokens.
  let accessTokenTTL: Duration
  /// The product catalogue (read-only).
  nonisolated let products: [Product] = SeedData.products

  private var accounts: [UserAccount] = SeedData.accounts
  private var posts: [Int: Post] = SeedData.postsByID
  private var images: [Int: (bytes: Data, type: String)] = [:]
  private var nextPostID = SeedData.postCount + 1
  private var tokens = TokenStore()
  private var refreshFailureEnabled = false
  private var refreshCalls = 0
  private var requestCounts: [String: Int] = [:]
  private var probes = ProbeCounters()
  private var cacheOrigin = CacheOrigin()
  private var droppedDownloads: Set<String> = []
  private var releasedGates: Set<String> = []
  private let clock = ContinuousClock()

  /// Creates state holding the seed data.
  init(accessTokenTTL: Duration) {
    self.accessTokenTTL = accessTokenTTL
  }

  // MARK: Accounts and tokens

  /// Checks credentials and issues a token pair, or returns `nil` when they do not match.
  func login(email: String, password: String) -> TokenPair? {
    guard let account = account(email: email), account.password == password else { return nil }
    return tokens.issue(userID: account.user.id, ttl: accessTokenTTL, now: clock.now)
  }

  /// The outcome of `/auth/refresh`.
  enum RefreshOutcome: Sendable {
    case refreshed(TokenPair)
    case unavailable
    case invalidToken
  }

  /// Counts the call, then swaps a refresh token for a new pair (unless failures are switched on).
  func refresh(refreshToken: String) -> RefreshOutcome {
    refreshCalls += 1
    if refreshFailureEnabled {
      return .unavailable
    }
    guard let userID = tokens.redeem(refreshToken: refreshToken) else {
      return .invalidToken
    }
    return .refreshed(tokens.issue(userID: userID, ttl: accessTokenTTL, now: clock.now))
  }

  /// The outcome of checking a bearer token.
  enum Authentication: Sendable {
    case user(User)
    case expired
    case unknown
  }

  /// Resolves a bearer token to its user.
  func authenticate(accessToken: String) -> Authentication {
    switch tokens.lookup(accessToken: accessToken, now: clock.now) {
    case .valid(let userID):
      guard let account = accounts.first(where: { $0.user.id == userID }) else { return .unknown }
      return .user(account.user)
    case .expired:
      return .expired
    case .unknown:
      return .unknown
    }
  }

  /// The user with `id`, if any.
  func user(id: Int) -> User? {
    accounts.first { $0.user.id == id }?.user
  }

  /// Renames user `id`; returns the updated user.
  func rename(userID: Int, to name: String) -> User? {
    guard let index = accounts.firstIndex(where: { $0.user.id == userID }) else { return nil }
    accounts[index].user.name = name
    return accounts[index].user
  }

  /// Creates an account, or returns `nil` when the email is taken.
  func signUp(email: String, password: String, name: String) -> User? {
    guard account(email: email) == nil else { return nil }
    let id = (accounts.map(\.user.id).max() ?? 0) + 1
    let createdAt = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    let user = User(id: id, email: email, name: name, createdAt: createdAt)
    accounts.append(UserAccount(user: user, password: password))
    return user
  }

  private func account(email: String) -> UserAccount? {
    let wanted = email.lowercased()
    return accounts.first { $0.user.email.lowercased() == wanted }
  }

  // MARK: Posts

  /// Post `id`, if it exists.
  func post(id: Int) -> Post? {
    posts[id]
  }

  /// All posts ordered by id.
  func allPosts() -> [Post] {
    posts.values.sorted { $0.id < $1.id }
  }

  /// Creates a post with the next free id.
  func createPost(title: String, body: String) -> Post {
    let post = Post(id: nextPostID, title: title, body: body)
    posts[post.id] = post
    nextPostID += 1
    return post
  }

  /// Deletes post `id`; returns whether it existed.
  func deletePost(id: Int) -> Bool {
    images[id] = nil
    return posts.removeValue(forKey: id) != nil
  }

  /// Stores post `id`'s picture; false when there is no such post.
  func setImage(_ bytes: Data, type: String, ofPost id: Int) -> Bool {
    guard posts[id] != nil else { return false }
    images[id] = (bytes, type)
    return true
  }

  /// Post `id`'s picture and its content type.
  func image(ofPost id: Int) -> (bytes: Data, type: String)? {
    images[id]
  }

  // MARK: Retry, de-duplication and concurrency probes

  /// Counts a request to `/flaky/{key}`; returns the key's attempts including this one.
  func recordFlakyAttempt(key: String) -> Int {
    probes.recordFlakyAttempt(key: key)
  }

  /// Requests to `/flaky/{key}` so far.
  func flakyAttempts(key: String) -> Int {
    probes.flakyAttempts[key, default: 0]
  }

  /// Counts a hit on `/counted/{key}`; returns the key's hits including this one.
  func recordHit(key: String) -> Int {
    probes.recordHit(key: key)
  }

  /// Hits on `/counted/{key}` so far.
  func hits(key: String) -> Int {
    probes.countedHits[key, default: 0]
  }

  /// A `/concurrency/probe` starts; returns how many are in flight including it.
  func beginProbe() -> Int {
    probes.beginProbe()
  }

  /// A `/concurrency/probe` ends; returns the most ever in flight at once.
  func endProbe() -> Int {
    probes.endProbe()
  }

  // MARK: HTTP cache origin

  /// Counts a `GET` or `HEAD` of `/cache/resource/{key}` at `now`; `isNotModified` decides, given the version
  /// current at that moment, whether the answer is 304.
  func readCacheResource(
    key: String,
    now: Date,
    isNotModified: @Sendable (CacheOrigin.Version) -> Bool
  ) -> CacheOrigin.Read {
    cacheOrigin.read(key: key, now: now, isNotModified: isNotModified)
  }

  /// Counts an unsafe request to `/cache/resource/{key}`, making a new version when `bumpsVersion`; returns the
  /// version current afterwards.
  func writeCacheResource(key: String, bumpsVersion: Bool) -> CacheOrigin.Version {
    cacheOrigin.write(key: key, bumpsVersion: bumpsVersion, now: Date())
  }

  /// The origin counters and current version of `/cache/resource/{key}`.
  func cacheHits(key: String) -> CacheHits {
    let (counters, version) = cacheOrigin.report(key: key)
    return CacheHits(
      key: key,
      hits: counters.hits,
      notModified: counters.notModified,
      unsafe: counters.unsafe,
      version: version
    )
  }

  // MARK: Downloads

  /// Whether a `/download/{bytes}/drop` request with `key` already dropped its connection.
  func hasDroppedDownload(key: String) -> Bool {
    droppedDownloads.contains(key)
  }

  /// Records that a `/download/{bytes}/drop` request with `key` drops its connection; returns `false` when another
  /// request with the key already did (then this one must not).
  func claimDownloadDrop(key: String) -> Bool {
    droppedDownloads.insert(key).inserted
  }

  /// Opens the stream gate `key`.
  func releaseGate(_ key: String) {
    releasedGates.insert(key)
  }

  /// Waits until the gate `key` is released or `timeout` has passed (checking every 10 ms).
  func waitForGate(_ key: String, timeout: Duration) async {
    let deadline = clock.now + timeout
    while !releasedGates.contains(key), clock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
  }

  // MARK: Admin

  /// Makes every current access token expired; returns how many were still valid.
  func expireAllAccessTokens() -> Int {
    tokens.expireAll(now: clock.now)
  }

  /// Switches forced `/auth/refresh` failures on or off.
  func setRefreshFailure(enabled: Bool) {
    refreshFailureEnabled = enabled
  }

  /// Counts one request to `route` (`"<METHOD> <pattern>"`).
  func recordRequest(_ route: String) {
    requestCounts[route, default: 0] += 1
  }

  /// The counters.
  func stats() -> Stats {
    Stats(
      refreshCalls: refreshCalls,
      requests: requestCounts,
      maxInFlight: probes.maxInFlight,
      flaky: probes.flakyAttempts
    )
  }

  /// Returns everything to the seed data: accounts, posts, tokens, switches, counters, cache versions and dropped
  /// download keys (probes still in flight stay counted as in flight).
  func reset() {
    accounts = SeedData.accounts
    posts = SeedData.postsByID
    images = [:]
    nextPostID = SeedData.postCount + 1
    tokens = TokenStore()
    refreshFailureEnabled = false
    refreshCalls = 0
    requestCounts = [:]
    probes.reset()
    cacheOrigin = CacheOrigin()
    droppedDownloads = []
    releasedGates = []
  }
}
#endif
