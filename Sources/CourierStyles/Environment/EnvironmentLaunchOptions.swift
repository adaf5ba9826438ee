import Courier
import Foundation

/// How a process asks for an environment at launch: the `COURIER_ENV` environment variable, or the launch
/// argument `-courier-env <name>` (also `--courier-env <name>` and `-courier-env=<name>`). The argument wins.
///
/// The value is an environment's name (`staging`, `prod`, `qa`) or, for a server of your own, a base URL
/// (`COURIER_ENV=http://127.0.0.1:8080`). In Xcode, set either in the scheme's Run options.
public struct EnvironmentLaunchOptions: Sendable, Hashable {
  /// The name of the environment variable: `COURIER_ENV`.
  public static let variableName = "COURIER_ENV"
  /// The launch argument: `-courier-env`.
  public static let argumentName = "-courier-env"

  /// The process's arguments.
  public var arguments: [String]
  /// The process's environment variables.
  public var variables: [String: String]

  /// Options from explicit arguments and variables, for tests and tools.
  public init(arguments: [String] = [], variables: [String: String] = [:]) {
    self.arguments = arguments
    self.variables = variables
  }

  /// The running process's arguments and environment variables.
  public static var current: EnvironmentLaunchOptions {
    EnvironmentLaunchOptions(
      arguments: ProcessInfo.processInfo.arguments, variables: ProcessInfo.processInfo.environment)
  }

  /// The value asked for, from the launch argument or else the environment variable, or `nil`.
  public var requestedValue: String? {
    let long = "-" + Self.argumentName
    for (index, argument) in arguments.enumerated() {
      for name in [Self.argumentName, long] {
        if argument == name, index + 1 < arguments.count { return arguments[index + 1] }
        if argument.hasPrefix(name + "=") { return String(argument.dropFirst(name.count + 1)) }
      }
    }
    guard let value = variables[Self.variableName], !value.isEmpty else { return nil }
    return value
  }

  /// The environment asked for: one of `environments` by name, or a custom one when the value is an `http` or
  /// `https` URL; `nil` when nothing was asked for or the name is unknown.
  public func requestedEnvironment(among environments: [APIEnvironment]) -> APIEnvironment? {
    guard let value = requestedValue?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    if let url = URL(string: value), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
      url.host != nil
    {
      return APIEnvironment(APIEnvironment.Name(url.host ?? "custom"), baseURL: url)
    }
    let name = APIEnvironment.Name(value)
    return environments.first { $0.name == name }
  }
}
