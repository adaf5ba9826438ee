#if canImport(Hummingbird)
import Hummingbird

/// Uploads for multipart, streaming and progress tests; bodies are read chunk by chunk and never held whole.
///
/// - `POST /upload` (`multipart/form-data`) → 200 `{"parts": [{"name","filename","contentType","size","sha256",
///   "value"}], "totalBytes": N}` (``UploadReport``), or 400 `invalid_multipart` when the body is not a well-formed
///   form (see ``MultipartReader``). The answer comes once the whole body has been read, also after an error.
/// - `POST|PUT /upload/raw` (any body) → 200 `{"size","sha256","contentType","chunked","contentLength"}`
///   (``RawUploadReport``), telling how the body was framed.
@available(macOS 14, iOS 17, tvOS 17, *)
struct UploadRoutes: Sendable {
  /// The routes.
  var routes: [Route] {
    [
      Route(method: .post, pattern: "/upload", handler: multipart),
      Route(method: .post, pattern: "/upload/raw", handler: raw),
      Route(method: .put, pattern: "/upload/raw", handler: raw),
    ]
  }

  /// Parses the form as it streams in and reports each part.
  @Sendable func multipart(_ request: Request, _ context: DemoContext) async throws -> Response {
    let boundary: String
    do {
      boundary = try MultipartBoundary.parse(contentType: request.headers[.contentType])
    } catch {
      for try await _ in request.body {}
      throw error.apiError
    }
    let reader = MultipartReader(boundary: boundary)
    for try await chunk in request.body {
      reader.feed(chunk)
    }
    do {
      return try JSONResponse.make(try reader.finish())
    } catch let error as MultipartFailure {
      throw error.apiError
    }
  }

  /// Hashes the body as it streams in and reports its size, digest and framing.
  @Sendable func raw(_ request: Request, _ context: DemoContext) async throws -> Response {
    var hash = SHA256Digest()
    for try await chunk in request.body {
      hash.update(chunk)
    }
    let encodings = request.headers[values: .transferEncoding]
    let report = RawUploadReport(
      size: hash.count,
      sha256: hash.finalizeHex(),
      contentType: request.headers[.contentType],
      chunked: encodings.contains { $0.lowercased().contains("chunked") },
      contentLength: request.headers[.contentLength].flatMap { Int64($0) }
    )
    return try JSONResponse.make(report)
  }
}
#endif
