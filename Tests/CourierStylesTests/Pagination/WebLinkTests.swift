import Courier
import CourierStyles
import CourierTestSupport
import Foundation
import Testing

@Suite("Link header parsing (RFC 8288)")
struct WebLinkTests {
  @Test("one link with a quoted rel")
  func single() {
    let links = WebLink.parse(#"<https://api.example.com/items?page=2>; rel="next""#)
    #expect(
      links == [
        WebLink(target: "https://api.example.com/items?page=2", parameters: [.init(name: "rel", value: "next")])
      ])
    #expect(links.first?.relations == ["next"])
  }

  @Test("several links, in order, each with several parameters")
  func several() {
    let value =
      #"<https://x.test/p?page=3>; rel="next"; title="Page 3", <https://x.test/p?page=1>; rel=first,"#
      + #" <https://x.test/p?page=9>; rel="last""#
    let links = WebLink.parse(value)
    #expect(links.map(\.target) == ["https://x.test/p?page=3", "https://x.test/p?page=1", "https://x.test/p?page=9"])
    #expect(links.map(\.relations) == [["next"], ["first"], ["last"]])
    #expect(links[0].parameter("title") == "Page 3")
  }

  @Test("commas and semicolons inside quoted strings and targets do not split links")
  func quotedSeparators() {
    let value = #"</a,b;c>; title="one, two; three"; rel="next", </d>; rel="prev""#
    let links = WebLink.parse(value)
    #expect(links.count == 2)
    #expect(links[0].target == "/a,b;c")
    #expect(links[0].parameter("title") == "one, two; three")
    #expect(links[0].hasRelation("next"))
    #expect(links[1].hasRelation("prev"))
  }

  @Test("backslash escapes in quoted strings are unescaped")
  func escapes() {
    let links = WebLink.parse(#"</x>; title="say \"hi\" \\ bye"; rel=next"#)
    #expect(links.first?.parameter("title") == #"say "hi" \ bye"#)
    #expect(links.first?.relations == ["next"])
  }

  @Test("a rel may hold several relation types, compared without case")
  func multipleRelations() {
    let link = WebLink.parse(#"</last>; REL="Next  LAST""#)[0]
    #expect(link.relations == ["next", "last"])
    #expect(link.hasRelation("NEXT"))
    #expect(link.hasRelation("last"))
    #expect(!link.hasRelation("prev"))
  }

  @Test("only the first rel counts; whitespace around separators is allowed")
  func firstRelWins() {
    let link = WebLink.parse("  < /x > ;rel = prev ; rel=next ")[0]
    #expect(link.target == "/x")
    #expect(link.relations == ["prev"])
    #expect(link.parameters.map(\.name) == ["rel", "rel"])
  }

  @Test("extended parameters (RFC 8187) are percent-decoded")
  func extendedValue() {
    let link = WebLink.parse(#"</de>; rel="alternate"; title*=UTF-8'de'n%c3%a4chstes%20Kapitel"#)[0]
    #expect(link.parameter("title*") == "nächstes Kapitel")
  }

  @Test("a parameter without a value has an empty one")
  func bareParameter() {
    let link = WebLink.parse("</x>; rel=next; crossorigin")[0]
    #expect(link.parameter("crossorigin") == "")
  }

  @Test("malformed link-values are skipped; an unterminated target ends the parse")
  func malformed() {
    let links = WebLink.parse(#"garbage; rel="x, y", </ok>; rel=next, <no-end; rel=last"#)
    #expect(links.map(\.target) == ["/ok"])
    #expect(WebLink.parse("").isEmpty)
    #expect(WebLink.parse(" , ,").isEmpty)
  }

  @Test("targets resolve against the response's URL")
  func relativeResolution() throws {
    let base = try #require(URL(string: "https://api.example.com/v1/items?page=1"))
    let links = WebLink.parse(
      #"</v1/items?page=2>; rel=next, <?page=3>; rel=other, <../users>; rel=up, <https://cdn.test/a>; rel=x"#)
    #expect(
      links.map { $0.url(relativeTo: base)?.absoluteString } == [
        "https://api.example.com/v1/items?page=2", "https://api.example.com/v1/items?page=3",
        "https://api.example.com/users", "https://cdn.test/a",
      ])
  }
}
