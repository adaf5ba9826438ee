import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Security)
import Security
#endif

extension CourierError {
  /// Classifies a transport's failure: `URLError` codes, `CancellationError`, or an error Courier already made.
  package init(transportFailure error: any Error, request: HTTPRequest?) {
    if var courierError = error as? CourierError {
      if courierError.request == nil { courierError.request = request }
      self = courierError
      return
    }
    if error is CancellationError {
      self.init(.cancelled, "The request was cancelled", request: request, underlyingError: error)
      return
    }
    guard let urlError = error as? URLError else {
      self.init(.transport, "The transport failed: \(error)", request: request, underlyingError: error)
      return
    }
    let description = urlError.localizedDescription
    let reported = "URLSession failed: \(description) (code \(urlError.code.rawValue))"
    if urlError.code.rawValue == Self.appTransportSecurityCode {
      self.init(
        .invalidRequest,
        "App Transport Security refused plain http to \(TLSFailure.host(of: request)): use https, or allow the host "
          + "under NSAppTransportSecurity in the app's Info.plist (\(reported))",
        request: request, underlyingError: urlError)
      return
    }
    let trustCode = urlError.code == .serverCertificateUntrusted ? Self.trustErrorCode(of: urlError) : nil
    if let failure = TLSFailure(code: urlError.code, message: description, trustErrorCode: trustCode) {
      let detail = failure.detail(host: TLSFailure.host(of: request), reported: reported)
      self.init(.tls, detail, request: request, underlyingError: urlError)
      return
    }
    let kind: Kind
    switch urlError.code {
    case .cancelled, .userCancelledAuthentication:
      kind = .cancelled
    case .timedOut:
      kind = .timeout
    case .notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .dataNotAllowed,
      .internationalRoamingOff, .callIsActive:
      kind = .noConnection
    case .networkConnectionLost:
      kind = .connectionLost
    case .badURL, .unsupportedURL:
      kind = .invalidURL
    case .unknown where Self.isCutShort(description):
      kind = .connectionLost
    case .unknown where Self.isConnectFailure(description):
      kind = .noConnection
    default:
      kind = .transport
    }
    self.init(kind, reported, request: request, underlyingError: urlError)
  }

  /// `NSURLErrorAppTransportSecurityRequiresSecureConnection`: App Transport Security refused a plain http request.
  static let appTransportSecurityCode = -1022

  /// The code of the error of the server trust a certificate failure carries (Apple platforms; `nil` elsewhere).
  static func trustErrorCode(of error: URLError) -> Int? {
    #if canImport(Security)
    // The trust URLSession refused; evaluated again only to learn which check failed, on this failure's path alone.
    // URLSession evaluated it already, so the Security framework answers from that result rather than evaluating
    // anew (which could wait on the network), and with the same error.
    guard let value = error.userInfo[NSURLErrorFailingURLPeerTrustErrorKey] as CFTypeRef?,
      CFGetTypeID(value) == SecTrustGetTypeID()
    else { return nil }
    let trust = value as! SecTrust
    var failure: CFError?
    guard !SecTrustEvaluateWithError(trust, &failure), let failure else { return nil }
    return CFErrorGetCode(failure)
    #else
    return nil
    #endif
  }

  /// libcurl's words for a body cut short (a `Content-Length` not reached, a chunked body without its last chunk)
  /// or a request it could not send again on a new connection, which FoundationNetworking reports as unknown errors.
  static func isCutShort(_ description: String) -> Bool {
    description.hasPrefix("transfer closed with") || description.contains("rewind")
      || description.contains("Connection reset") || description.contains("Empty reply")
  }

  /// libcurl's words for a connection that could not be made (no route, host down), which FoundationNetworking
  /// reports as unknown errors.
  static func isConnectFailure(_ description: String) -> Bool {
    description.contains("Couldn't connect to server") || description.hasPrefix("Failed to connect")
      || description.contains("Could not resolve")
  }
}
