import Courier
import HTTPTypes

/// The request method under the name hand-written clients use: swift-http-types' `HTTPRequest.Method`.
///
/// It is open: besides `.get`, `.post`, `.put`, `.patch`, `.delete`, `.head`, `.options`, `.trace` and `.connect`,
/// any valid token is a method.
///
/// ```swift
/// let purge = HTTPMethod("PURGE")!
/// let data: Data = try await client.dataRequest(url: cacheURL, method: purge)
/// ```
public typealias HTTPMethod = HTTPRequest.Method
