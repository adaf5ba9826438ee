import Courier
import CourierDemoServer
import CourierStyles
import CourierTestSupport
import Foundation
import Testing

/// Choosing, switching and remembering environments, and a client that follows them.
@Suite struct EnvironmentTests {
  let all: [APIEnvironment] = [
    .development(URL(string: "http://127.0.0.1:8080")!),
    .staging(URL(string: "https://staging.example.test")!),
    .production(URL(string: "https://api.example.test")!),
    APIEnvironment("qa", baseURL: URL(string: "https://qa.example.test")!),
  ]

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func theLaunchArgumentWinsOverTheVariableWhichWinsOverTheStore() {
    let store = InMemoryEnvironmentStore(all[3])
    let both = EnvironmentLaunchOptions(
      arguments: ["App", "-courier-env", "staging"], variables: ["COURIER_ENV": "production"])
    #expect(EnvironmentSwitcher(all, store: store, launchOptions: both).current.name == .staging)

    let variable = EnvironmentLaunchOptions(variables: ["COURIER_ENV": "prod"])
    #expect(EnvironmentSwitcher(all, store: store, launchOptions: variable).current.name == .production)

    let stored = EnvironmentSwitcher(all, store: store, launchOptions: EnvironmentLaunchOptions())
    #expect(stored.current.name == "qa")

    let nothing = EnvironmentSwitcher(all, default: .staging, launchOptions: EnvironmentLaunchOptions())
    #expect(nothing.current.name == .staging)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func launchArgumentsComeInSeveralSpellings() {
    for arguments in [["-courier-env", "QA"], ["--courier-env", "qa"], ["-courier-env=qa"], ["--courier-env=qa"]] {
      let options = EnvironmentLaunchOptions(arguments: ["App"] + arguments)
      #expect(EnvironmentSwitcher(all, launchOptions: options).current.name == "qa", "\(arguments)")
    }
    let url = EnvironmentLaunchOptions(variables: ["COURIER_ENV": "http://127.0.0.1:9999/v2"])
    let custom = EnvironmentSwitcher(all, launchOptions: url).current
    #expect(custom.baseURL.absoluteString == "http://127.0.0.1:9999/v2")
    #expect(custom.name == "127.0.0.1")

    let unknown = EnvironmentLaunchOptions(arguments: ["App", "-courier-env", "moon"])
    #expect(EnvironmentSwitcher(all, default: .production, launchOptions: unknown).current.name == .production)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func namesIgnoreCaseAndExpandShortForms() {
    #expect(APIEnvironment.Name("Prod") == .production)
    #expect(APIEnvironment.Name("DEV") == .development)
    #expect(APIEnvironment.Name("stage") == .staging)
    #expect(APIEnvironment.Name("EU-Beta").rawValue == "eu-beta")
    #if DEBUG
    #expect(APIEnvironment.Name.buildDefault == .development)
    #else
    #expect(APIEnvironment.Name.buildDefault == .production)
    #endif
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func aRunTimeChoiceIsSavedAndBroadcast() async {
    let store = InMemoryEnvironmentStore()
    let switcher = EnvironmentSwitcher(all, default: .development, store: store, launchOptions: .init())
    var changes = switcher.changes().makeAsyncIterator()
    #expect(await changes.next()?.name == .development)

    #expect(switcher.select(.staging))
    #expect(switcher.current.name == .staging)
    #expect(store.load()?.name == .staging)
    #expect(await changes.next()?.name == .staging)

    #expect(!switcher.select("moon"))
    #expect(switcher.current.name == .staging)

    let relaunched = EnvironmentSwitcher(all, default: .development, store: store, launchOptions: .init())
    #expect(relaunched.current.name == .staging)
    relaunched.forgetSelection()
    #expect(
      EnvironmentSwitcher(all, default: .development, store: store, launchOptions: .init()).current.name
        == .development)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: TransportKind.allCases)
  func theNextRequestGoesToTheNewEnvironment(_ transport: TransportKind) async throws {
    let staging = try await DemoServer().start(host: "127.0.0.1", port: 0)
    do {
      try await withDemoServer(transport) { _, development in
        let environments = EnvironmentSwitcher(
          [
            .development(development.baseURL.appendingPathComponent("echo/dev")),
            .staging(staging.baseURL.appendingPathComponent("echo/staging")),
          ], default: .development, launchOptions: .init())
        let client = APIClient(environment: environments) { $0.transport = development.transport }

        let first = try await client.send(Endpoint<Echo>.get("/ping"))
        #expect(first.request.authority == "127.0.0.1:\(development.baseURL.port ?? 0)")
        #expect(first.value.path == "/echo/dev/ping")

        environments.select(.staging)
        let second = try await client.send(Endpoint<Echo>.get("/ping"))
        #expect(second.request.authority == "127.0.0.1:\(staging.baseURL.port ?? 0)")
        #expect(second.value.path == "/echo/staging/ping")

        let pinned = try await client.send(Endpoint<Echo>.get("/echo/pinned").baseURL(development.baseURL))
        #expect(pinned.request.authority == first.request.authority, "an endpoint's own base URL still wins")
      }
    } catch {
      await staging.stop()
      throw error
    }
    await staging.stop()
  }
}
