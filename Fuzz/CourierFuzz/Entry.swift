import Foundation

/// The target the fuzzer runs, named by `COURIER_FUZZ_TARGET` (see `Fuzz/run.sh`).
let selectedTarget: @Sendable ([UInt8]) -> Void = {
  let name = ProcessInfo.processInfo.environment["COURIER_FUZZ_TARGET"] ?? ""
  guard let target = FuzzTargets.all[name] else {
    fatalError("Set COURIER_FUZZ_TARGET to one of: \(FuzzTargets.all.keys.sorted().joined(separator: ", "))")
  }
  return target
}()

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  selectedTarget(bytes)
  return 0
}

#if FUZZING
/// libFuzzer's driver (`-sanitize=fuzzer` links it).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The executable's entry point as SwiftPM names it: hands the command line to libFuzzer's driver.
@_cdecl("CourierFuzz_main")
func fuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var count = argc
  var arguments = argv
  return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
#else
/// Without libFuzzer (a normal build): runs the target on each file named on the command line, to replay a crash.
@main struct Replay {
  static func main() throws {
    for path in CommandLine.arguments.dropFirst() {
      selectedTarget(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
      print("ok: \(path)")
    }
  }
}
#endif
