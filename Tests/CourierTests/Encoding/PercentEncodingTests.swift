import CourierTestSupport
import Foundation
import Testing

@testable import Courier

/// The one percent-encoder: its two modes (data, and text that may hold escapes already), its character sets, and its
/// two forms (a string, and bytes written into a buffer) agreeing on every input.
@Suite(.hangGuard) struct PercentEncodingTests {
  @Test func dataHasEveryByteOutsideTheSetEncodedItsPercentSignsIncluded() {
    #expect(PercentEncoding.encode("a b&c=d%41", keeping: PercentEncoding.unreserved) == "a%20b%26c%3Dd%2541")
    #expect(PercentEncoding.encode("café ☕", keeping: PercentEncoding.unreserved) == "caf%C3%A9%20%E2%98%95")
    #expect(PercentEncoding.encode("AZaz09-._~", keeping: PercentEncoding.unreserved) == "AZaz09-._~")
  }

  @Test func textKeepsItsValidEscapesAndEncodesAPercentThatStartsNone() {
    let path = PercentEncoding.path
    #expect(PercentEncoding.encode("/a%20b/c d", keeping: path, keepingEscapes: true) == "/a%20b/c%20d")
    #expect(PercentEncoding.encode("/100%/x%4", keeping: path, keepingEscapes: true) == "/100%25/x%254")
    #expect(PercentEncoding.encode("/%zz%4g", keeping: path, keepingEscapes: true) == "/%25zz%254g")
    #expect(PercentEncoding.encode("/a?b", keeping: path, keepingEscapes: true) == "/a%3Fb")
    #expect(PercentEncoding.encode("a?b=c d", keeping: PercentEncoding.query, keepingEscapes: true) == "a?b=c%20d")
    #expect(
      PercentEncoding.encode("/[::1]/x y", keeping: PercentEncoding.reference, keepingEscapes: true) == "/[::1]/x%20y")
  }

  @Test func theStringAndTheBufferFormsAgreeOnRandomText() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("aZ9-._~ %%2541/?#[]&=+é☕\u{0}\n".unicodeScalars)
    let sets: [PercentEncoding.ByteSet] = [
      PercentEncoding.unreserved, PercentEncoding.path, PercentEncoding.query,
    ]
    for _ in 0..<2000 {
      var text = ""
      for _ in 0..<Int.random(in: 0..<24, using: &generator) {
        text.unicodeScalars.append(alphabet.randomElement(using: &generator)!)
      }
      for allowed in sets {
        let encoded = PercentEncoding.encode(text[...], keeping: allowed)
        let written = [UInt8](unsafeUninitializedCapacity: text.utf8.count * 3 + 1) { buffer, count in
          count = PercentEncoding.write(text, keeping: allowed, into: buffer, at: 0)
        }
        #expect(String(decoding: written, as: UTF8.self) == encoded, "\(text.debugDescription)")
        #expect(encoded.removingPercentEncoding == text, "data round-trips: \(text.debugDescription)")
        #expect(encoded.utf8.allSatisfy { allowed.contains($0) || $0 == UInt8(ascii: "%") || Self.isHex($0) })
      }
    }
  }

  @Test func theSetsAreRFC3986s() {
    let letters = Set(
      (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { $0 } + (UInt8(ascii: "a")...UInt8(ascii: "z")).map { $0 })
    let digits = Set((UInt8(ascii: "0")...UInt8(ascii: "9")).map { $0 })
    let unreserved = letters.union(digits).union("-._~".utf8)
    let subDelims = Set("!$&'()*+,;=".utf8)
    let path = unreserved.union(subDelims).union(":@/".utf8)
    let query = path.union("?".utf8)
    let reference = query.union("[]".utf8)
    for byte in UInt8.min...UInt8.max {
      #expect(PercentEncoding.unreserved.contains(byte) == unreserved.contains(byte), "\(byte)")
      #expect(PercentEncoding.path.contains(byte) == path.contains(byte), "\(byte)")
      #expect(PercentEncoding.query.contains(byte) == query.contains(byte), "\(byte)")
      #expect(PercentEncoding.reference.contains(byte) == reference.contains(byte), "\(byte)")
    }
  }

  static func isHex(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte)
  }
}
