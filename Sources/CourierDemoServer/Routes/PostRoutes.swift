#if canImport(Hummingbird)
import Foundation
import Hummingbird

/// `GET /posts`, `GET /posts/{id}`, `POST /posts`, `DELETE /posts/{id}`, and a post's picture:
/// `PUT /posts/{id}/image` and `GET /posts/{id}/image`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct PostRoutes: Sendable {
  /// The server state.
  let state: DemoState

  /// The routes.
  var routes: [Route] {
    [
      Route(method: .get, pattern: "/posts", handler: list),
      Route(method: .post, pattern: "/posts", handler: create),
      Route(method: .get, pattern: "/posts/{id}", handler: post),
      Route(method: .delete, pattern: "/posts/{id}", handler: delete),
      Route(method: .put, pattern: "/posts/{id}/image", handler: putImage),
      Route(method: .get, pattern: "/posts/{id}/image", handler: image),
    ]
  }

  /// The largest picture kept.
  static let maxImageBytes = 4 << 20

  /// Stores the body as post `id`'s picture: 204, 404 for an unknown post, 413 past 4 MiB.
  @Sendable func putImage(_ request: Request, _ context: DemoContext) async throws -> Response {
    let id = try PathParameter.int("id", in: context)
    var bytes = Data()
    for try await chunk in request.body {
      bytes.append(contentsOf: chunk.readableBytesView)
      guard bytes.count <= Self.maxImageBytes else {
        throw APIError.payloadTooLarge("A picture is at most \(Self.maxImageBytes) bytes")
      }
    }
    let type = request.headers[.contentType] ?? "application/octet-stream"
    guard await state.setImage(bytes, type: type, ofPost: id) else {
      throw APIError.notFound("Post \(id) not found")
    }
    return JSONResponse.empty()
  }

  /// Post `id`'s picture, or 404.
  @Sendable func image(_ request: Request, _ context: DemoContext) async throws -> Response {
    let id = try PathParameter.int("id", in: context)
    guard let (bytes, type) = await state.image(ofPost: id) else {
      throw APIError.notFound("Post \(id) has no picture")
    }
    return Response(
      status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
  }

  /// Every post, ordered by id.
  @Sendable func list(_ request: Request, _ context: DemoContext) async throws -> Response {
    try JSONResponse.make(await state.allPosts())
  }

  /// One post, or 404.
  @Sendable func post(_ request: Request, _ context: DemoContext) async throws -> Response {
    let id = try PathParameter.int("id", in: context)
    guard let post = await state.post(id: id) else {
      throw APIError.notFound("Post \(id) not found")
    }
    return try JSONResponse.make(post)
  }

  /// `{"title","body"}` → 201 post with `Location: /posts/<id>`; 422 for an empty title.
  @Sendable func create(_ request: Request, _ context: DemoContext) async throws -> Response {
    let body = try await JSONBody.decode(CreatePostRequest.self, from: request)
    guard !body.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw APIError.validationFailed(["title must not be empty"])
    }
    let post = await state.createPost(title: body.title, body: body.body)
    return try JSONResponse.make(post, status: .created, headers: [.location: "/posts/\(post.id)"])
  }

  /// 204 with an empty body, or 404.
  @Sendable func delete(_ request: Request, _ context: DemoContext) async throws -> Response {
    let id = try PathParameter.int("id", in: context)
    guard await state.deletePost(id: id) else {
      throw APIError.notFound("Post \(id) not found")
    }
    return JSONResponse.empty()
  }
}
#endif
