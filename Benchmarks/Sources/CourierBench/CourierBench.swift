import Foundation

/// `courier-bench <scenario> <variant> [options]`: runs one scenario once and prints one `RESULT` line.
///
/// `run.sh` starts a new process for every measurement, so each peak RSS belongs to one scenario alone.
///
///     courier-bench fixtures <dir>                      writes small.json into <dir>
///     courier-bench get <variant> --base-url URL --count N [--concurrency C]
///     courier-bench upload <variant> --base-url URL --file PATH [--min-seconds S]
///     courier-bench multipart ahc-raw|ahc-courier|urlsession-raw|urlsession-courier --base-url URL --file PATH
///                     [--min-seconds S]
///     courier-bench download <variant> --base-url URL --size BYTES [--min-seconds S]
///     courier-bench limit ahc-courier|urlsession-courier --base-url URL --limit BYTES [--path large.bin]
///     courier-bench query raw|courier --count N [--fields 100|5]
///     courier-bench cache uncached|memory|sqlite --base-url URL --count N [--body decoded|data]
///     courier-bench decode catalog --count N           JSONDecoder alone on the 1 KB document
///     courier-bench eviction memory|sqlite --metric writes|hits --entries N --count N [--database PATH]
///     courier-bench outbox single|batch --count N [--directory DIR]   durable enqueues per second
///     courier-bench outbox-drain direct|drain --base-url URL --count N --concurrency C [--directory DIR]
///     courier-bench outbox-fleet enqueue|enqueue-each|enqueue-batch|drain|claim --store postgres|sqlite --postgres URL [--base-url URL]
///                     --count N [--workers W] [--lanes L]   the PostgreSQL outbox beside the SQLite one
///     courier-bench deadline urlsession|ahc --clock system|task --busy N --rounds R
///                     how late a 1 s deadline ends a call while N CPU-bound tasks keep the shared pool busy
///
/// Variants: urlsession-raw, urlsession-courier, ahc-raw, ahc-courier, ahc-courier-chain (auth + retry + logging),
///   urlsession-courier-chain (retry + concurrency limit + logging).
@main
enum CourierBench {
  /// A synchronous entry point that runs the main run loop while the scenario runs on a detached task, so work sent
  /// to the main queue or the main actor runs as it would in an app (an `async` main would park the main thread in
  /// `dispatch_main`'s `sigsuspend`, which valgrind 3.19 cannot run, and callgrind is how the hot path is profiled).
  /// The process exits when the scenario ends.
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    Task.detached {
      do {
        try await run(arguments)
      } catch {
        FileHandle.standardError.write(Data("courier-bench: \(error)\n".utf8))
        exit(1)
      }
      exit(0)
    }
    // A timer that never fires keeps the run loop waiting instead of returning at once when it has no other source.
    let keepAlive = Timer(timeInterval: 1e9, repeats: true) { _ in }
    RunLoop.main.add(keepAlive, forMode: .default)
    while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
  }

  static func run(_ arguments: [String]) async throws {
    guard arguments.count >= 2 else { throw BenchmarkFailure("usage: courier-bench <scenario> <variant> [options]") }
    let options = Options(arguments.dropFirst(2))
    switch arguments[0] {
    case "fixtures":
      try Catalog.writeSample(to: URL(fileURLWithPath: arguments[1]).appendingPathComponent("small.json"))
    case "get":
      let variant = try parse(GETVariant.self, arguments[1])
      try await GETScenario.run(
        variant, baseURL: try options.url("base-url"), count: try options.int("count"),
        concurrency: (try? options.int("concurrency")) ?? 1
      ).report()
    case "upload":
      let variant = try parse(TransferVariant.self, arguments[1])
      let (baseURL, file) = (try options.url("base-url"), try options.string("file"))
      try await repeated(options) { try await TransferScenario.upload(variant, baseURL: baseURL, file: file) }.report()
    case "multipart":
      let variant = try parse(TransferVariant.self, arguments[1])
      let (baseURL, file) = (try options.url("base-url"), try options.string("file"))
      try await repeated(options) {
        try await TransferScenario.multipartUpload(variant, baseURL: baseURL, file: file)
      }.report()
    case "download":
      let variant = try parse(TransferVariant.self, arguments[1])
      let (baseURL, size) = (try options.url("base-url"), Int64(try options.int("size")))
      try await repeated(options) {
        try await TransferScenario.download(variant, baseURL: baseURL, expectedSize: size)
      }.report()
    case "limit":
      let variant = try parse(TransferVariant.self, arguments[1])
      try await TransferScenario.limit(
        variant, baseURL: try options.url("base-url"), path: (try? options.string("path")) ?? "large.bin",
        limit: try options.int("limit")
      ).report()
    case "cache":
      let variant = try parse(CacheScenario.Variant.self, arguments[1])
      let body = try parse(CacheScenario.Body.self, (try? options.string("body")) ?? "decoded")
      try await CacheScenario.run(
        variant, body: body, baseURL: try options.url("base-url"), count: try options.int("count")
      ).report()
    case "eviction":
      let variant = try parse(EvictionScenario.Variant.self, arguments[1])
      let metric = try parse(EvictionScenario.Metric.self, try options.string("metric"))
      try await EvictionScenario.run(
        variant, metric: metric, entries: try options.int("entries"), count: try options.int("count"),
        database: try? options.string("database")
      ).report()
    case "decode":
      guard arguments[1] == "catalog" else { throw BenchmarkFailure("decode catalog --count N") }
      try DecodeScenario.run(count: try options.int("count")).report()
    case "query":
      guard ["raw", "courier"].contains(arguments[1]) else { throw BenchmarkFailure("query raw|courier") }
      try QueryEncodingScenario.run(
        raw: arguments[1] == "raw", fields: (try? options.int("fields")) ?? 100, count: try options.int("count")
      ).report()
    case "outbox":
      let variant = try parse(OutboxScenario.Variant.self, arguments[1])
      try await OutboxScenario.run(
        variant, count: try options.int("count"),
        directory: (try? options.string("directory")) ?? FileManager.default.temporaryDirectory.path
      ).report()
    case "outbox-drain":
      let variant = try parse(OutboxDrainScenario.Variant.self, arguments[1])
      try await OutboxDrainScenario.run(
        variant, baseURL: try options.url("base-url"), count: try options.int("count"),
        concurrency: try options.int("concurrency"),
        directory: (try? options.string("directory")) ?? FileManager.default.temporaryDirectory.path
      ).report()
    case "outbox-fleet":
      let variant = try parse(OutboxFleetScenario.Variant.self, arguments[1])
      try await OutboxFleetScenario.run(
        variant, store: try parse(OutboxFleetScenario.Store.self, (try? options.string("store")) ?? "postgres"),
        postgres: try? options.url("postgres"), baseURL: try? options.url("base-url"), count: try options.int("count"),
        workers: (try? options.int("workers")) ?? 1, lanes: (try? options.int("lanes")) ?? 16,
        directory: (try? options.string("directory")) ?? FileManager.default.temporaryDirectory.path
      ).report()
    case "deadline":
      let transport = try parse(DeadlineScenario.Transport.self, arguments[1])
      let clock = try parse(DeadlineScenario.Clock.self, (try? options.string("clock")) ?? "system")
      try await DeadlineScenario.run(
        transport: transport, clock: clock, busy: try options.int("busy"), rounds: try options.int("rounds")
      ).report()
    default:
      throw BenchmarkFailure("unknown scenario \(arguments[0])")
    }
  }

  /// Runs `transfer` again until `--min-seconds` of transfers have passed (once when the option is absent), and
  /// reports the rate over all of them. A 1 GiB transfer over AsyncHTTPClient takes about half a second here, and a
  /// half-second run on two shared cores moves with whatever else the machine did in that half second.
  static func repeated(_ options: Options, _ transfer: () async throws -> Measurement) async throws -> Measurement {
    let minimum = (try? options.string("min-seconds")).flatMap(Double.init) ?? 0
    var megabytes = 0.0
    var seconds = 0.0
    var count = 0
    repeat {
      let one = try await transfer()
      megabytes += one.value * one.seconds
      seconds += one.seconds
      count += 1
    } while seconds < minimum
    return Measurement(value: megabytes / seconds, unit: "MB/s", operations: count, seconds: seconds)
  }

  static func parse<Variant: RawRepresentable>(_ type: Variant.Type, _ text: String) throws -> Variant
  where Variant.RawValue == String {
    guard let variant = Variant(rawValue: text) else { throw BenchmarkFailure("unknown variant \(text)") }
    return variant
  }
}

/// `--name value` pairs.
struct Options {
  var values: [String: String] = [:]

  init(_ arguments: ArraySlice<String>) {
    var iterator = arguments.makeIterator()
    while let name = iterator.next() {
      guard name.hasPrefix("--"), let value = iterator.next() else { continue }
      values[String(name.dropFirst(2))] = value
    }
  }

  func string(_ name: String) throws -> String {
    guard let value = values[name] else { throw BenchmarkFailure("missing --\(name)") }
    return value
  }

  func int(_ name: String) throws -> Int {
    guard let value = Int(try string(name)) else { throw BenchmarkFailure("--\(name) is not an integer") }
    return value
  }

  func url(_ name: String) throws -> URL {
    guard let url = URL(string: try string(name)) else { throw BenchmarkFailure("--\(name) is not a URL") }
    return url
  }
}
