import Foundation
import Testing

/// The documentation stays true: every code sample of the articles and the README is compiled (it is found in the
/// `DocumentationSamples` target), and the README links only to files inside the package.
@Suite struct DocumentationSampleTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The README and every DocC article, relative to the package root.
  static func documents() throws -> [String] {
    let sources = root.appendingPathComponent("Sources")
    var documents = ["README.md"]
    for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
      let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
      guard let articles = try? FileManager.default.contentsOfDirectory(atPath: catalog.path) else { continue }
      documents += articles.filter { $0.hasSuffix(".md") }.sorted().map { "Sources/\(module)/\(module).docc/\($0)" }
    }
    return documents
  }

  /// The Swift code blocks of a Markdown text.
  static func swiftBlocks(in text: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
        current = []
      } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
        blocks.append(current!.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// Code without its `import` lines and without any whitespace, so that formatting does not matter.
  static func normalized(_ code: String) -> String {
    code.split(separator: "\n").filter { !$0.hasPrefix("import ") }.joined()
      .filter { !$0.isWhitespace }
  }

  /// Where the samples are compiled: the `DocumentationSamples` target, and the testing article's tests, which run
  /// its samples as well.
  static let sampleFolders = ["Tests/DocumentationSamples", "Tests/CourierTestingTests/Article"]

  static func compiledSamples() throws -> String {
    try sampleFolders.map { root.appendingPathComponent($0) }.flatMap { folder in
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        .filter { $0.hasSuffix(".swift") }
        .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
    }
    .map(normalized).joined(separator: "\n")
  }

  @Test func everySampleIsCompiled() throws {
    let compiled = try Self.compiledSamples()
    var count = 0
    for document in try Self.documents() {
      let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
      for (index, block) in Self.swiftBlocks(in: text).enumerated() {
        count += 1
        let found = compiled.contains(Self.normalized(block))
        #expect(
          found,
          "Sample \(index + 1) of \(document) is not compiled in \(Self.sampleFolders):\n\(block)")
      }
    }
    #expect(count >= 40)
  }

  @Test func readmeLinksStayInsideThePackage() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let links = readme.matches(of: /\]\(([^)\s]+)\)/).map { String($0.output.1) }
    #expect(!links.isEmpty)
    for link in links where !link.hasPrefix("https://") && !link.hasPrefix("#") {
      let path = String(link.prefix { $0 != "#" })
      #expect(!path.hasPrefix("/") && !path.split(separator: "/").contains(".."), "\(link) leaves the package")
      #expect(
        FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(link) is missing")
    }
  }
}
