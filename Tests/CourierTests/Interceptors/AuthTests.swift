import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// A fake server that accepts only its current token, and a provider that counts refreshes.
final class TokenServer: Sendable {
  let validToken = Locked("t1")
  let refreshes = Locked(0)
  let seenTokens = Locked<[String]>([])

  var transport: StubTransport {
    StubTransport(
      .any.reply { [self] request in
        let token = request.headerFields[.authorization]?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
        seenTokens.withLock { $0.append(token) }
        try await Task.sleep(for: .milliseconds(5))
        let valid = validToken.withLock { $0 }
        return .body("{}", status: token == valid ? .ok : .unauthorized)
      })
  }

  func provider(
    failing: Bool = false,
    store: TokenStore = .inMemory(AuthToken(accessToken: "t0", refreshToken: "r0"))
  )
    -> StoredTokenProvider
  {
    StoredTokenProvider(store: store) { [self] old in
      refreshes.withLock { $0 += 1 }
      try await Task.sleep(for: .milliseconds(50))
      if failing { throw CourierError(.unacceptableStatus, "refresh rejected") }
      let next = validToken.withLock { token in
        token = "t\(Int(token.dropFirst())! + 1)"
        return token
      }
      return AuthToken(accessToken: next, refreshToken: "r-\(next)")
    }
  }
}

@Suite struct AuthInterceptorTests {
  @Test func concurrent401sShareOneRefreshAndAllSucceed() async throws {
    let server = TokenServer()
    server.validToken.withLock { $0 = "t0" }
    let provider = server.provider()
    server.validToken.withLock { $0 = "t1" }  // the stored t0 is now stale
    let client = APIClient.stubbed(server.transport) { $0.interceptors = [AuthInterceptor(provider: provider)] }
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<200 { group.addTask { try await client.send(Endpoint<EmptyBody>.get("/me")).status.code } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(statuses.count == 200)
    #expect(statuses.allSatisfy { $0 == 200 })
    #expect(server.refreshes.withLock { $0 } == 1)
    #expect(await provider.credentials()?.accessToken == "t2")
    let seen = server.seenTokens.withLock { $0 }
    #expect(seen.filter { $0 == "t2" }.count == 200, "each request is replayed exactly once with the new token")
  }

  @Test func failingRefreshFailsEveryoneOnceAndClearsCredentials() async throws {
    let server = TokenServer()
    let unauthorizedCalls = Locked(0)
    let store = TokenStore.inMemory(AuthToken(accessToken: "t0", refreshToken: "r0"))
    let client = APIClient.stubbed(server.transport) {
      $0.interceptors = [
        AuthInterceptor(provider: server.provider(failing: true, store: store)) { _ in
          unauthorizedCalls.withLock { $0 += 1 }
        }
      ]
    }
    let errors = await withTaskGroup(of: CourierError?.self) { group in
      for _ in 0..<200 {
        group.addTask {
          do {
            try await client.send(Endpoint<EmptyBody>.get("/me"))
            return nil
          } catch { return error as? CourierError }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(errors.count == 200)
    #expect(errors.allSatisfy { $0?.kind == .unauthorized })
    #expect(errors.allSatisfy { $0?.isUnauthorized == true })
    #expect(server.refreshes.withLock { $0 } == 1)
    #expect(unauthorizedCalls.withLock { $0 } == 1)
    #expect(try await store.load() == nil)
    // Signed out now: a new request fails at once, is not sent, and triggers no refresh.
    let sent = server.seenTokens.withLock { $0.count }
    let later = await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/me")) }
    #expect(later?.kind == .unauthorized)
    #expect(server.seenTokens.withLock { $0.count } == sent)
    #expect(server.refreshes.withLock { $0 } == 1)
  }

  @Test func a401WithTheFreshTokenIsNotRefreshedAgain() async {
    let server = TokenServer()
    server.validToken.withLock { $0 = "never-valid" }
    let auth = AuthInterceptor(store: .inMemory(AuthToken(accessToken: "t0"))) { _ in
      server.refreshes.withLock { $0 += 1 }
      return AuthToken(accessToken: "t1")
    }
    let client = APIClient.stubbed(server.transport) { $0.interceptors = [auth] }
    let error = await #expect(throws: CourierError.self) { try await client.send(Endpoint<EmptyBody>.get("/me")) }
    #expect(error?.status == .unauthorized)
    #expect(server.refreshes.withLock { $0 } == 1)
    #expect(server.seenTokens.withLock { $0 } == ["t0", "t1"])
  }

  @Test func requestsStartingDuringARefreshWaitForIt() async throws {
    let server = TokenServer()
    let (gate, open) = AsyncStream.makeStream(of: Void.self)
    let auth = AuthInterceptor(store: .inMemory(AuthToken(accessToken: "t0"))) { _ in
      server.refreshes.withLock { $0 += 1 }
      for await _ in gate { break }
      server.validToken.withLock { $0 = "t2" }
      return AuthToken(accessToken: "t2")
    }
    let client = APIClient.stubbed(server.transport) { $0.interceptors = [auth] }
    let first = Task { try await client.send(Endpoint<EmptyBody>.get("/me")) }
    while server.refreshes.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(5)) }
    let second = Task { try await client.send(Endpoint<EmptyBody>.get("/me")) }
    try await Task.sleep(for: .milliseconds(50))
    open.yield()
    _ = try await first.value
    _ = try await second.value
    #expect(server.refreshes.withLock { $0 } == 1)
    #expect(server.seenTokens.withLock { $0 }.filter { $0 == "t0" }.count == 1, "the stale token was sent once only")
  }

  @Test func loginAndRefreshEndpointsPassThrough() async throws {
    let server = TokenServer()
    let client = APIClient.stubbed(server.transport) {
      $0.interceptors = [AuthInterceptor(provider: server.provider())]
    }
    let login = await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.post("/auth/login").withoutAuthentication())
    }
    #expect(login?.status == .unauthorized)
    await #expect(throws: CourierError.self) {
      try await client.send(Endpoint<EmptyBody>.post("/auth/refresh").asTokenRefresh())
    }
    #expect(server.refreshes.withLock { $0 } == 0)
    #expect(server.seenTokens.withLock { $0 } == ["", ""])
  }

  @Test func authorizationHeaderIsSetFromTheStore() async throws {
    let transport = StubTransport(.any.reply(.status(.ok)))
    let client = APIClient.stubbed(transport) {
      $0.interceptors = [AuthInterceptor(store: .inMemory(AuthToken(accessToken: "abc"))) { $0 }]
    }
    try await client.send(Endpoint<EmptyBody>.get("/me"))
    #expect(transport.requests.first?.headerFields[.authorization] == "Bearer abc")
  }
}

@Suite struct TokenStoreTests {
  @Test func fileStoreRoundTripsWithOwnerOnlyPermissionsAndNoLeftovers() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("nested/credentials.json")
    let store = TokenStore.file(at: url)
    #expect(try await store.load() == nil)
    let token = AuthToken(accessToken: "a", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 1_000))
    try await store.save(token)
    try await store.save(AuthToken(accessToken: "b", refreshToken: "r2"))
    #expect(try await store.load() == AuthToken(accessToken: "b", refreshToken: "r2"))
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let files = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
    #expect(files == ["credentials.json"], "no temporary files are left behind")
    #expect(try await TokenStore.file(at: url).load()?.accessToken == "b", "a new store instance reads it back")
    try await store.clear()
    #expect(try await store.load() == nil)
  }

  @Test func corruptFileIsATypedError() async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data("not json".utf8).write(to: url)
    let error = await #expect(throws: CourierError.self) { try await TokenStore.file(at: url).load() }
    #expect(error?.kind == .decoding)
  }

  @Test func inMemoryStoreStartsWithItsTokenAndForgetsIt() async throws {
    let store = TokenStore.inMemory(AuthToken(accessToken: "a"))
    #expect(try await store.load()?.accessToken == "a")
    try await store.save(AuthToken(accessToken: "b"))
    #expect(try await store.load()?.accessToken == "b")
    try await store.clear()
    #expect(try await store.load() == nil)
    #expect(try await TokenStore.inMemory().load() == nil)
  }

  @Test func customStoreCallsItsClosures() async throws {
    let saved = Locked<AuthToken?>(nil)
    let store = TokenStore(
      load: { saved.withLock { $0 } },
      save: { token in saved.withLock { $0 = token } },
      clear: { saved.withLock { $0 = nil } })
    try await store.save(AuthToken(accessToken: "a"))
    #expect(saved.withLock { $0 }?.accessToken == "a")
    #expect(try await store.load()?.accessToken == "a")
    try await store.clear()
    #expect(saved.withLock { $0 } == nil)
  }

  @Test func aStoreThatCannotBeReadCountsAsSignedOutAndFailsTheRefresh() async throws {
    struct Unreadable: Error {}
    let provider = StoredTokenProvider(
      store: TokenStore(load: { throw Unreadable() }, save: { _ in }, clear: {}), refresh: { $0 })
    #expect(await provider.credentials() == nil)
    await #expect(throws: Unreadable.self) { try await provider.refresh() }
  }

  @Test func tokensNeverPrintThemselves() {
    let text = String(describing: AuthToken(accessToken: "secret-access", refreshToken: "secret-refresh"))
    #expect(!text.contains("secret"))
  }
}
