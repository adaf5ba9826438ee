import Courier
import HTTPTypes
import Testing

/// `HTTPField.Name.common(_:)` recognises the names servers send on almost every response, in their usual spelling.
@Suite struct CommonFieldNameTests {
  @Test func everyCommonNameInItsUsualSpellingIsRecognised() {
    let names: [HTTPField.Name] = [
      .age, .date, .eTag, .vary, .server, .expires, .location, .connection, .setCookie, .contentType, .lastModified,
      .acceptRanges, .cacheControl, .contentLength, .contentEncoding, .transferEncoding,
    ]
    for name in names {
      #expect(HTTPField.Name.common(name.rawName) == name, "\(name.rawName)")
      #expect(HTTPField.Name.common(name.rawName)?.rawName == name.rawName)
    }
    #expect(HTTPField.Name.common("Keep-Alive")?.canonicalName == "keep-alive")
  }

  @Test func otherSpellingsAndOtherNamesAreLeftToTheValidatingInitializer() {
    for name in ["content-length", "CONTENT-TYPE", "Etag", "X-Request-Id", "", "Dat", "Date ", "Content-Lengths"] {
      #expect(HTTPField.Name.common(name) == nil, "\(name)")
    }
  }
}
