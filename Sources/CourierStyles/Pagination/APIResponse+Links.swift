import Courier
import Foundation
import HTTPTypes

extension APIResponse {
  /// The links of every `Link` header field of the response (RFC 8288), in order.
  ///
  /// ```swift
  /// let response = try await client.send(Endpoint<[Repository]>.get("/user/repos"))
  /// let last = response.links.first { $0.hasRelation("last") }
  /// ```
  public var links: [WebLink] {
    guard let name = HTTPField.Name("Link") else { return [] }
    return response.headerFields[values: name].flatMap(WebLink.parse)
  }

  /// The URL of the first link with the relation type `relation` (case-insensitive), resolved against the URL the
  /// request was sent to: `response.link("next")`.
  public func link(_ relation: String) -> URL? {
    guard let link = links.first(where: { $0.hasRelation(relation) }) else { return nil }
    return link.url(relativeTo: request.url)
  }
}
