import Courier
import Foundation

extension Paginator {
  /// Pages linked by the `Link` response header (RFC 8288): the next page is the target of the link whose relation
  /// is `next`, resolved against the current page's URL; no such link ends the pages.
  ///
  /// ```swift
  /// // Link: <https://api.example.com/repos?page=3>; rel="next", <https://api.example.com/repos?page=9>; rel="last"
  /// for try await repos in client.pages(of: Endpoint<[Repository]>.get("/user/repos"), using: .linkHeader()) {
  ///   list.append(contentsOf: repos)
  /// }
  /// ```
  ///
  /// The target URL is sent as it is, without the first endpoint's query parameters (the server put the ones it
  /// wants in the link); method, headers and decoding carry over.
  ///
  /// - Parameter relation: The relation type to follow, compared case-insensitively; `next` by default.
  public static func linkHeader(relation: String = "next") -> Paginator {
    Paginator { response, endpoint in
      guard let url = response.link(relation) else { return nil }
      return endpoint.url(url)
    }
  }
}
