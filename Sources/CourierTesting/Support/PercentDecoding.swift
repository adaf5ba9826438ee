import Foundation

extension StringProtocol {
  /// The text with `%XX` escapes decoded, or the text itself when an escape is not valid UTF-8.
  var percentDecoded: String {
    String(self).removingPercentEncoding ?? String(self)
  }
}
