import Foundation
import HTTPTypes

/// Attaches `Authorization: Bearer …` and, when the server answers 401, refreshes the credentials once for every
/// request that failed with them, then replays each of those requests once with the new token.
///
/// - Requests that start while a refresh runs wait for it instead of sending the stale token.
/// - When the refresh fails, every waiting request fails with ``CourierError/Kind-swift.struct/unauthorized``, the
///   credentials are cleared, and `onUnauthorized` runs once (not once per request): show the login screen there.
/// - The credentials come from a ``TokenStore`` plus your refresh call
///   (``AuthInterceptor/init(store:refreshStatuses:refresh:onUnauthorized:)``), or from your own ``TokenProvider``.
/// - A 401 to a request that already carried the fresh token is returned as is: there is no refresh loop.
/// - A request that needs credentials when there are none (signed out) fails with
///   ``CourierError/Kind-swift.struct/unauthorized`` without being sent.
/// - Endpoints marked ``Endpoint/withoutAuthentication()`` (login) or ``Endpoint/asTokenRefresh()`` (the refresh
///   call itself) pass through untouched.
///
/// ```swift
/// let client = APIClient(baseURL: url) {
///   $0.interceptors = [AuthInterceptor(provider: tokens) { _ in await MainActor.run { router.showLogin() } }]
/// }
/// ```
public struct AuthInterceptor: Interceptor {
  private let coordinator: RefreshCoordinator
  /// The statuses that mean "the token was rejected"; 401 by default.
  public let refreshStatuses: Set<HTTPResponse.Status>

  /// Creates the interceptor.
  ///
  /// - Parameters:
  ///   - provider: Supplies and renews the credentials.
  ///   - refreshStatuses: The statuses that trigger a refresh.
  ///   - onUnauthorized: Called once per failed refresh.
  public init(
    provider: any TokenProvider,
    refreshStatuses: Set<HTTPResponse.Status> = [.unauthorized],
    onUnauthorized: (@Sendable (CourierError) async -> Void)? = nil
  ) {
    coordinator = RefreshCoordinator(provider: provider, onUnauthorized: onUnauthorized)
    self.refreshStatuses = refreshStatuses
  }

  /// Authenticates the request, refreshing once on a rejected token.
  public func intercept(
    _ request: HTTPRequest,
    body: BodyStream?,
    context: CallContext,
    next: Next
  ) async throws -> (HTTPResponse, BodyStream) {
    guard context[AuthenticationKey.self] == .required else {
      return try await next(request, body, context)
    }
    guard let token = try await coordinator.credentials() else {
      throw CourierError(.unauthorized, "There are no credentials for a request that requires them", request: request)
    }
    let first = try await next(Self.authorize(request, with: token), body, context)
    guard refreshStatuses.contains(first.0.status), body.map({ $0.isRepeatable }) ?? true
    else {
      return first
    }
    context.events.send(.refreshing(callID: context.callID))
    let fresh = try await coordinator.renewed(replacing: token)
    return try await next(Self.authorize(request, with: fresh), body, context)
  }

  static func authorize(_ request: HTTPRequest, with token: AuthToken) -> HTTPRequest {
    var request = request
    request.headerFields[.authorization] = "Bearer \(token.accessToken)"
    return request
  }
}
