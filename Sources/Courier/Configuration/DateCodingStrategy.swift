import Foundation

/// How dates are written to and read from JSON bodies: seconds or milliseconds since 1970, ISO 8601, or a format.
///
/// Set it at whichever level the API is consistent: for every call of a client, for one endpoint, or for one
/// model type. The most specific wins: the endpoint's, then the model's, then the client's.
///
/// ```swift
/// let client = APIClient(baseURL: url) { $0.dateCodingStrategy = .millisecondsSince1970 }  // every call
/// let legacy = Endpoint<Report>.get("/reports/7").dateCodingStrategy(.formatted("yyyy-MM-dd"))  // one call
/// extension Invoice: DateCodingStrategyProviding {  // every body whose type is Invoice or [Invoice]
///   static var dateCodingStrategy: DateCodingStrategy { .secondsSince1970 }
/// }
/// ```
public struct DateCodingStrategy: Sendable {
  enum Base: Sendable {
    case secondsSince1970
    case millisecondsSince1970
    case iso8601(fractionalSeconds: Bool)
    case formatted(DateFormatter)
    case custom(format: @Sendable (Date) throws -> String, parse: (@Sendable (String) throws -> Date)?)
  }

  let base: Base

  /// Seconds since 1970-01-01T00:00:00Z as a JSON number: `1714564800`.
  public static let secondsSince1970 = DateCodingStrategy(base: .secondsSince1970)

  /// Milliseconds since 1970-01-01T00:00:00Z as a JSON number: `1714564800000`.
  public static let millisecondsSince1970 = DateCodingStrategy(base: .millisecondsSince1970)

  /// ISO 8601 text such as `2024-05-01T12:00:00Z`. Decoding also accepts fractional seconds
  /// (`2024-05-01T12:00:00.250Z`); encoding writes whole seconds.
  public static let iso8601 = DateCodingStrategy(base: .iso8601(fractionalSeconds: false))

  /// ISO 8601 text with milliseconds, such as `2024-05-01T12:00:00.250Z`. Decoding also accepts whole seconds.
  public static let iso8601WithFractionalSeconds = DateCodingStrategy(base: .iso8601(fractionalSeconds: true))

  /// The text a `DateFormatter` writes and reads. Configure it fully (locale, time zone, format) before handing
  /// it over, and do not change it afterwards.
  ///
  /// ```swift
  /// let formatter = DateFormatter()
  /// formatter.locale = Locale(identifier: "en_US_POSIX")
  /// formatter.timeZone = TimeZone(identifier: "Europe/Paris")
  /// formatter.dateFormat = "dd/MM/yyyy HH:mm"
  /// let strategy = DateCodingStrategy.formatted(formatter)
  /// ```
  public static func formatted(_ formatter: DateFormatter) -> DateCodingStrategy {
    DateCodingStrategy(base: .formatted(formatter))
  }

  /// The text of a fixed format such as `"yyyy-MM-dd"`, in `en_US_POSIX` and `timeZone` (UTC by default).
  ///
  /// ```swift
  /// Endpoint<Holidays>.get("/holidays").dateCodingStrategy(.formatted("yyyy-MM-dd"))  // "2024-12-25"
  /// ```
  public static func formatted(
    _ format: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!
  )
    -> DateCodingStrategy
  {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = format
    return formatted(formatter)
  }

  /// Your own text for a date, and how to read it back (`parse`; without it, decoding a date with this strategy
  /// fails, which is fine for a strategy used only to write queries). An error either closure throws is wrapped
  /// in `EncodingError.invalidValue` / `DecodingError.dataCorrupted` with the date's coding path, and kept as the
  /// underlying error.
  ///
  /// ```swift
  /// let days = DateCodingStrategy.custom { String(Int($0.timeIntervalSince1970 / 86_400)) }  // days since 1970
  /// let encoder = URLQueryEncoder(dateEncoding: days)
  /// ```
  public static func custom(
    _ format: @escaping @Sendable (Date) throws -> String,
    parse: (@Sendable (String) throws -> Date)? = nil
  ) -> DateCodingStrategy {
    DateCodingStrategy(base: .custom(format: format, parse: parse))
  }

  /// The strategy as `JSONDecoder` spells it.
  public var decodingStrategy: JSONDecoder.DateDecodingStrategy {
    switch base {
    case .secondsSince1970: .secondsSince1970
    case .millisecondsSince1970: .millisecondsSince1970
    case .iso8601: .custom(Self.decodeISO8601)
    case .formatted(let formatter): .formatted(formatter)
    case .custom(_, let parse):
      .custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parse else {
          throw DecodingError.dataCorruptedError(
            in: container, debugDescription: "The custom date strategy has no `parse` closure to read \"\(text)\"")
        }
        do {
          return try parse(text)
        } catch {
          throw DecodingError.dataCorrupted(
            DecodingError.Context(
              codingPath: decoder.codingPath, debugDescription: "\"\(text)\" could not be parsed: \(error)",
              underlyingError: error))
        }
      }
    }
  }

  /// The strategy as `JSONEncoder` spells it.
  public var encodingStrategy: JSONEncoder.DateEncodingStrategy {
    switch base {
    case .secondsSince1970: .secondsSince1970
    case .millisecondsSince1970: .millisecondsSince1970
    case .iso8601(let fractionalSeconds):
      .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: fractionalSeconds)))
      }
    case .formatted(let formatter): .formatted(formatter)
    case .custom(let format, _):
      .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(try format(date))
      }
    }
  }

  /// Reads ISO 8601 text with or without fractional seconds.
  @Sendable static func decodeISO8601(_ decoder: any Decoder) throws -> Date {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
    if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
    throw DecodingError.dataCorruptedError(
      in: container, debugDescription: "\"\(text)\" is not an ISO 8601 date")
  }
}
