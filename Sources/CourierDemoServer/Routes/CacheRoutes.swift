#if canImport(Hummingbird)
import Foundation
import HTTPTypes
import Hummingbird

/// `/cache/resource/{key}`: a resource whose caching headers each test chooses, answering conditional requests and
/// counting every request that reaches it, so HTTP-cache tests can check exactly what got to the origin;
/// `GET /cache/hits/{key}` reads the counts.
///
/// - `GET`/`HEAD` (query: ``CacheResourceOptions``) → 200 `{"key","version","hit","vary"}` (``CacheResource``) with
///   the chosen headers, or 304 with the validators and freshness headers when `If-None-Match` or
///   `If-Modified-Since` say the client's copy is current (see ``CacheConditions``), or the `fail` status.
/// - `POST`/`PUT`/`PATCH`/`DELETE` (query: ``CacheUpdateOptions``) → a new version when the answer is 2xx; 200
///   `{"key","version"}` (``CacheVersion``), 204 for `DELETE`, or the `status` asked for.
///
/// Requests rejected with 400 are not counted.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheRoutes: Sendable {
  /// The methods that change the resource.
  static let unsafeMethods: [HTTPRequest.Method] = [.post, .put, .patch, .delete]
  /// The resource's path pattern.
  static let resourcePattern = "/cache/resource/{key}"

  /// The server state.
  let state: DemoState

  /// The routes.
  var routes: [Route] {
    [Route(method: .get, pattern: Self.resourcePattern, handler: read)]
      + Self.unsafeMethods.map { Route(method: $0, pattern: Self.resourcePattern, handler: write) }
      + [Route(method: .get, pattern: "/cache/hits/{key}", counted: false, handler: hits)]
  }

  /// Counts an origin hit, then answers 200 with the resource, 304, or the planned failure.
  @Sendable func read(_ request: Request, _ context: DemoContext) async throws -> Response {
    let key = try PathParameter.key(in: context)
    let options = try CacheResourceOptions(QueryString(raw: request.uri.query))
    if options.entityTag != nil && !EntityTag.isValidOpaque(key) {
      throw APIError.invalidParameter("key", "Path parameter 'key' has characters an ETag cannot contain")
    }
    let conditions = CacheConditions(headers: request.headers)
    let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    let read = await state.readCacheResource(key: key, now: now) { version in
      guard options.failure == nil else { return false }
      let headers = CacheResourceHeaders(key: key, version: version, options: options, now: now)
      return conditions.isNotModified(entityTag: headers.entityTag, lastModified: headers.lastModified)
    }
    if let failure = options.failure {
      return JSONResponse.error(
        APIError(
          status: failure,
          code: ErrorMapping.code(for: failure),
          message: "Planned failure \(failure.code) for key '\(key)'",
          headers: [.cacheControl: "no-store"]
        )
      )
    }
    let headers = CacheResourceHeaders(key: key, version: read.version, options: options, now: now)
    if read.notModified {
      return Response(status: .notModified, headers: headers.notModifiedFields)
    }
    let body = CacheResource(
      key: key,
      version: read.version.number,
      hit: read.hit,
      vary: Self.varyValues(options.vary?.names ?? [], in: request.headers)
    )
    return try JSONResponse.make(body, headers: headers.fields)
  }

  /// Counts an unsafe request and, for a 2xx answer, makes a new version; echoes `Location`/`Content-Location`.
  @Sendable func write(_ request: Request, _ context: DemoContext) async throws -> Response {
    let key = try PathParameter.key(in: context)
    let options = try CacheUpdateOptions(QueryString(raw: request.uri.query))
    let status = options.status ?? (request.method == .delete ? .noContent : .ok)
    let version = await state.writeCacheResource(key: key, bumpsVersion: status.kind == .successful)
    var headers: HTTPFields = [:]
    if let location = options.location {
      headers[.location] = location
    }
    if let contentLocation = options.contentLocation {
      headers[.contentLocation] = contentLocation
    }
    switch status.code {
    case 204, 205, 304:
      return JSONResponse.empty(status: status, headers: headers)
    case 400...:
      let message = "Status \(status.code) for \(request.method.rawValue) of key '\(key)'"
      return JSONResponse.error(
        APIError(status: status, code: "status_\(status.code)", message: message, headers: headers)
      )
    default:
      return try JSONResponse.make(CacheVersion(key: key, version: version.number), status: status, headers: headers)
    }
  }

  /// `{"key","hits","notModified","unsafe","version"}` with `Cache-Control: no-store`, without counting anything.
  @Sendable func hits(_ request: Request, _ context: DemoContext) async throws -> Response {
    let key = try PathParameter.key(in: context)
    return try JSONResponse.make(await state.cacheHits(key: key), headers: [.cacheControl: "no-store"])
  }

  /// The request's value of each header in `names` (`nil` when absent).
  static func varyValues(_ names: [String], in headers: HTTPFields) -> [String: String?] {
    var values: [String: String?] = [:]
    for name in names {
      values.updateValue(HTTPField.Name(name).flatMap { headers[$0] }, forKey: name)
    }
    return values
  }
}
#endif
