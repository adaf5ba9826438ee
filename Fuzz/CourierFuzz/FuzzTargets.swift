import Foundation
import HTTPTypes

@testable import Courier
@testable import CourierStyles

/// The parsers and encoders that see server or user input, each as a function of arbitrary bytes. A broken
/// invariant (a chunked parse that differs from a whole one, a round trip that changes a value, a declared length
/// that is not the real one) stops the process, so the fuzzer reports it like a crash.
enum FuzzTargets {
  static let all: [String: @Sendable ([UInt8]) -> Void] = [
    "cache-control": cacheControl,
    "http-date": httpDate,
    "age-expires": ageAndExpires,
    "vary": vary,
    "set-cookie": setCookie,
    "link": link,
    "lines": lines,
    "json-lines": jsonLines,
    "event-stream": eventStream,
    "query": query,
    "multipart": multipart,
    "redirect-location": redirectLocation,
    "byte-ranges": byteRanges,
  ]

  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("Invariant broken: \(message())") }
  }

  /// Splits `bytes` into chunks whose sizes come from the bytes themselves, so the fuzzer explores chunk borders.
  static func chunks(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var result: [ArraySlice<UInt8>] = []
    var index = 0
    while index < bytes.count {
      let size = max(1, Int(bytes[index] % 7))
      let end = min(bytes.count, index + size)
      result.append(bytes[index..<end])
      index = end
    }
    return result
  }

  static func cacheControl(_ bytes: [UInt8]) {
    var fields = HTTPFields()
    fields[.cacheControl] = text(bytes)
    let control = CacheControl(fields)
    check(control.maxAge.map { $0 >= 0 } ?? true, "negative max-age from \(text(bytes))")
  }

  static func httpDate(_ bytes: [UInt8]) {
    let value = text(bytes)
    if let date = HTTPDate.parseStrict(value) {
      let again = HTTPDate.parse(HTTPDate.format(date))
      check(again == date, "\(value) → \(date) does not survive formatting")
    }
    _ = HTTPDate.parse(value)
    _ = CookieDate.parse(value)
  }

  static func ageAndExpires(_ bytes: [UInt8]) {
    let value = text(bytes)
    if let age = Freshness.ageValue(value) { check(age >= 0, "negative age from \(value)") }
    var response = HTTPResponse(status: .ok)
    response.headerFields[.expires] = value
    response.headerFields[.age] = value
    let lifetime = Freshness.lifetime(of: response, receivedAt: Date())
    check(lifetime >= 0, "negative lifetime from \(value)")
  }

  static func vary(_ bytes: [UInt8]) {
    let value = text(bytes)
    var request = HTTPRequest(method: .get, scheme: "https", authority: "a.test", path: "/")
    for line in value.split(separator: "\n", omittingEmptySubsequences: false) {
      request.headerFields.append(HTTPField(name: .acceptEncoding, value: String(line)))
    }
    var response = HTTPResponse(status: .ok)
    response.headerFields[.vary] = value
    _ = CacheCall.varyNames(response)
    if let first = CacheCall.varyValue(of: .acceptEncoding, in: request) {
      check(first == first.lowercased(), "Accept-Encoding variant not case-folded")
    }
  }

  /// `Range` and `Content-Range` fields and the stored-parts field parse without crashing and within their bounds;
  /// parts added in any order hold exactly the bytes of a reference document.
  static func byteRanges(_ bytes: [UInt8]) {
    let lines = text(bytes).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let length = Int(bytes.first ?? 0)
    if let wanted = ByteRangeRequest([lines[0]]), let range = wanted.resolved(length: length) {
      check(range.lowerBound >= 0 && range.upperBound <= length && !range.isEmpty, "\(range) of \(length)")
    }
    if lines.count > 1, let part = ContentRange.part([lines[1]]) {
      check(!part.bytes.isEmpty && part.bytes.upperBound <= part.completeLength, "\(part)")
    }
    if lines.count > 2, let parsed = StoredParts(field: lines[2], body: Data(bytes.prefix(16))) {
      check(StoredParts(field: parsed.field, body: parsed.data) == parsed, "stored parts round trip \(lines[2])")
    }
    let document = (0..<64).map { UInt8($0) }
    var parts = StoredParts(completeLength: 64, ranges: [], data: Data())
    var pairs = bytes.makeIterator()
    while let a = pairs.next(), let b = pairs.next() {
      let lower = Int(a % 64)
      let upper = min(64, lower + 1 + Int(b % 16))
      parts = parts.adding(Data(document[lower..<upper]), at: lower..<upper)
    }
    check(parts.data.count == parts.ranges.reduce(0) { $0 + $1.count }, "parts data \(parts.ranges)")
    for (left, right) in zip(parts.ranges, parts.ranges.dropFirst()) {
      check(left.upperBound < right.lowerBound, "parts overlap or touch: \(parts.ranges)")
    }
    for range in parts.ranges {
      check(parts.bytes(range) == Data(document[range]), "wrong bytes for \(range)")
    }
    check(parts.isComplete == (parts.ranges == [0..<64]), "completeness")
  }

  static func setCookie(_ bytes: [UInt8]) {
    let jar = CookieJar()
    let lines = text(bytes).split(separator: "\n").map(String.init)
    jar.setCookies(lines, from: URL(string: "https://www.example.com/a/b")!)
    for cookie in jar.cookies(for: URL(string: "https://www.example.com/a/b/c")!) {
      check(!cookie.name.isEmpty, "a cookie without a name")
      check(!cookie.domain.contains("com") || cookie.domain.hasSuffix("example.com"), "cookie for \(cookie.domain)")
    }
  }

  static func link(_ bytes: [UInt8]) {
    for link in WebLink.parse(text(bytes)) {
      check(!link.target.contains(">"), "a link target holding '>'")
    }
  }

  static func lines(_ bytes: [UInt8]) {
    func split(_ pieces: [ArraySlice<UInt8>]) -> [String]? {
      var splitter = LineSplitter(maximumLineLength: 1 << 16)
      var result: [String] = []
      do {
        for piece in pieces {
          splitter.append(Data(piece))
          while let line = try splitter.nextLine() { result.append(line) }
        }
        splitter.finish()
        while let line = try splitter.nextLine() { result.append(line) }
      } catch {
        return nil
      }
      return result
    }
    let whole = split([bytes[...]])
    let chunked = split(chunks(bytes))
    check(whole == chunked, "lines differ when chunked")
  }

  static func jsonLines(_ bytes: [UInt8]) {
    var splitter = LineSplitter(maximumLineLength: 1 << 16)
    splitter.append(Data(bytes))
    splitter.finish()
    let decoder = JSONDecoder()
    while let line = try? splitter.nextLine() {
      _ = try? decoder.decode([String: Int].self, from: Data(line.utf8))
    }
  }

  static func eventStream(_ bytes: [UInt8]) {
    func parse(_ pieces: [ArraySlice<UInt8>]) -> ([ServerEvent], String, Int?)? {
      var parser = EventStreamParser(maximumEventSize: 1 << 16)
      var events: [ServerEvent] = []
      do {
        for piece in pieces { events += try parser.parse(piece).map(\.event) }
      } catch {
        return nil
      }
      return (events, parser.lastEventID, parser.reconnectionDelay)
    }
    let whole = parse([bytes[...]])
    let chunked = parse(chunks(bytes))
    check(whole?.0 == chunked?.0 && whole?.1 == chunked?.1 && whole?.2 == chunked?.2, "events differ when chunked")
  }

  static func query(_ bytes: [UInt8]) {
    // Pairs of name and value, separated by NUL bytes in the input.
    let parts = bytes.split(separator: 0, omittingEmptySubsequences: false).map { text(Array($0)) }
    var query = QueryParameters()
    var expected: [(String, String)] = []
    var index = 0
    while index + 1 < parts.count {
      query.append(parts[index], .string(parts[index + 1]))
      expected.append((parts[index], parts[index + 1]))
      index += 2
    }
    guard let encoded = try? URLQueryEncoder().percentEncodedString(query) else { return }
    var components = URLComponents()
    components.percentEncodedQuery = encoded
    let decoded = (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    check(decoded.count == expected.count, "\(expected.count) pairs came back as \(decoded.count)")
    for (got, want) in zip(decoded, expected) {
      check(got.0 == want.0 && got.1 == want.1, "\(want) came back as \(got)")
    }
  }

  static func multipart(_ bytes: [UInt8]) {
    let parts = bytes.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
    var form = MultipartFormData(boundary: "courier-fuzz-boundary-7d3f")
    var index = 0
    while index + 2 < parts.count {
      let name = text(parts[index])
      let fileName = parts[index + 1].isEmpty ? nil : text(parts[index + 1])
      form.append(Data(parts[index + 2]), name: name, fileName: fileName, mimeType: "application/octet-stream")
      index += 3
    }
    guard let (body, _) = try? form.encoded() else { return }
    let data = collect(body)
    if let length = body.length {
      check(Int64(data.count) == length, "declared \(length) bytes, sent \(data.count)")
    }
    // Every header line ends where it should: no name or file name breaks out of its header.
    let delimiter = Data("--courier-fuzz-boundary-7d3f\r\n".utf8)
    var count = 0
    var search = data.startIndex..<data.endIndex
    while let found = data.range(of: delimiter, in: search) {
      count += 1
      search = found.upperBound..<data.endIndex
    }
    check(count >= form.count, "\(form.count) parts but \(count) delimiters")
  }

  static func redirectLocation(_ bytes: [UInt8]) {
    let location = text(bytes)
    let base = URL(string: "https://api.example.com/v1/items/7?x=1")!
    if let target = RedirectLocation.url(location, relativeTo: base) {
      _ = target.host
      _ = RequestTarget.dotSegment(in: target.path)
    }
    _ = RequestTarget.isAbsolute(location)
    _ = RequestTarget.join("/v1/", location)
    _ = PercentEncoding.encode(Substring(location), keeping: PercentEncoding.reference, keepingEscapes: true)
    _ = PercentEncoding.encode(Substring(location), keeping: PercentEncoding.unreserved)
  }

  /// Reads a multipart body to its end without a task: the chunks its stream hands out, stepped through
  /// synchronously over the segments the body is made of (bytes in memory alone; the fuzzed forms have no files).
  static func collect(_ body: BodyStream) -> Data {
    guard let segments = body.segments else { fatalError("Invariant broken: a multipart body without segments") }
    let stream = MultipartStream(segments: segments)
    var data = Data()
    var index = 0
    while true {
      switch stream.step(from: &index) {
      case .data(let chunk): data.append(chunk)
      case .file(let url, _): fatalError("Invariant broken: a file segment \(url) in a form of bytes")
      case .end: return data
      }
    }
  }
}
