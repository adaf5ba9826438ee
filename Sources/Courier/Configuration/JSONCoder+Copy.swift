import Foundation

extension JSONDecoder {
  /// A new decoder with the same settings, so one call can change a setting without touching a shared decoder.
  func copy() -> JSONDecoder {
    let copy = JSONDecoder()
    copy.dateDecodingStrategy = dateDecodingStrategy
    copy.dataDecodingStrategy = dataDecodingStrategy
    copy.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
    copy.keyDecodingStrategy = keyDecodingStrategy
    copy.userInfo = userInfo
    copy.allowsJSON5 = allowsJSON5
    copy.assumesTopLevelDictionary = assumesTopLevelDictionary
    return copy
  }

  /// A copy that reads dates with `strategy`.
  func with(_ strategy: DateCodingStrategy) -> JSONDecoder {
    let copy = copy()
    copy.dateDecodingStrategy = strategy.decodingStrategy
    return copy
  }
}

extension JSONEncoder {
  /// A new encoder with the same settings.
  func copy() -> JSONEncoder {
    let copy = JSONEncoder()
    copy.outputFormatting = outputFormatting
    copy.dateEncodingStrategy = dateEncodingStrategy
    copy.dataEncodingStrategy = dataEncodingStrategy
    copy.nonConformingFloatEncodingStrategy = nonConformingFloatEncodingStrategy
    copy.keyEncodingStrategy = keyEncodingStrategy
    copy.userInfo = userInfo
    return copy
  }

  /// A copy that writes dates with `strategy`.
  func with(_ strategy: DateCodingStrategy) -> JSONEncoder {
    let copy = copy()
    copy.dateEncodingStrategy = strategy.encodingStrategy
    return copy
  }
}
