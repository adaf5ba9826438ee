import AsyncHTTPClient

#if canImport(Network)
import Network

extension NetworkFrameworkFailure {
  /// The domain and code of `error` when Network.framework reported it: an `NWError`, or AsyncHTTPClient's wrapper of
  /// one.
  init?(_ error: any Error) {
    switch error {
    case let error as HTTPClient.NWTLSError: self.init(.tls, code: error.status)
    case let error as HTTPClient.NWPOSIXError: self.init(.posix, code: error.errorCode.rawValue)
    case let error as NWError:
      switch error {
      case .posix(let code): self.init(.posix, code: code.rawValue)
      case .dns(let code): self.init(.dns, code: code)
      case .tls(let status): self.init(.tls, code: status)
      @unknown default: return nil
      }
    default: return nil
    }
  }
}
#else
extension NetworkFrameworkFailure {
  /// `nil`: there is no Network.framework here.
  init?(_ error: any Error) { return nil }
}
#endif
