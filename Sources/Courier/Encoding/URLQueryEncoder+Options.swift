import Foundation

extension URLQueryEncoder {
  /// How an array is written into a query.
  ///
  /// For `tags = ["a", "b"]`:
  ///
  /// | Case              | Output                    |
  /// |-------------------|---------------------------|
  /// | `.brackets`       | `tags[]=a&tags[]=b`       |
  /// | `.repeated`       | `tags=a&tags=b`           |
  /// | `.indexed`        | `tags[0]=a&tags[1]=b`     |
  /// | `.commaSeparated` | `tags=a,b`                |
  /// | `.json`           | `tags=["a","b"]`          |
  ///
  /// Only `.indexed` can express arrays that contain arrays or objects (`items[0][id]=7`); the other
  /// strategies throw for them. An empty array writes nothing with `.brackets`, `.repeated` and `.indexed`,
  /// `tags=` with `.commaSeparated` and `tags=[]` with `.json`. `nil` elements are skipped, so `.indexed`
  /// numbers only the elements it writes.
  public enum ArrayEncoding: Sendable, Equatable {
    /// `tags[]=a&tags[]=b`, understood by Rails, PHP and most Node frameworks. The default.
    case brackets
    /// `tags=a&tags=b`, understood by most Java, Go and Python servers.
    case repeated
    /// `tags[0]=a&tags[1]=b`; the only strategy that supports arrays of arrays and arrays of objects.
    case indexed
    /// `tags=a,b`. Elements are not escaped, so a comma inside an element is ambiguous to the server.
    case commaSeparated
    /// `tags=["a","b"]`: each element's query text as a JSON string, in a JSON array.
    case json
  }

  /// How a `Bool` is written into a query.
  public enum BoolEncoding: Sendable, Equatable {
    /// `true` and `false`. The default.
    case literal
    /// `1` and `0`.
    case numeric
  }

  /// How a `Date` is written into a query.
  ///
  /// For `Date(timeIntervalSince1970: 1_714_564_800)`:
  /// `.iso8601` gives `2024-05-01T12:00:00Z`, `.secondsSince1970` gives `1714564800` and
  /// `.millisecondsSince1970` gives `1714564800000`.
  public enum DateEncoding: Sendable {
    /// An ISO 8601 timestamp in UTC without fractional seconds, such as `2024-05-01T12:00:00Z`. The default.
    case iso8601
    /// Seconds since 1970-01-01T00:00:00Z: `1714564800`, or `1714564800.5` when there is a fraction.
    case secondsSince1970
    /// Whole milliseconds since 1970-01-01T00:00:00Z, rounded to the nearest one: `1714564800000`.
    case millisecondsSince1970
    /// The string a `DateFormatter` produces. Configure the formatter fully (locale, time zone, format)
    /// before handing it over, and do not change it afterwards.
    ///
    /// ```swift
    /// let formatter = DateFormatter()
    /// formatter.locale = Locale(identifier: "en_US_POSIX")
    /// formatter.timeZone = TimeZone(identifier: "UTC")
    /// formatter.dateFormat = "yyyy-MM-dd"
    /// let encoder = URLQueryEncoder(dateEncoding: .formatted(formatter))  // day=2024-05-01
    /// ```
    case formatted(DateFormatter)
    /// Your own conversion. An error thrown by the closure is wrapped in `EncodingError.invalidValue`,
    /// with the date's coding path, and keeps the original as `underlyingError`.
    ///
    /// ```swift
    /// let encoder = URLQueryEncoder(dateEncoding: .custom { date in
    ///   String(Int(date.timeIntervalSince1970 / 86_400))  // days since 1970
    /// })
    /// ```
    case custom(@Sendable (Date) throws -> String)
  }

  /// How the keys of structs, classes and dictionaries are transformed before they are written.
  ///
  /// Names in a hand-written `Query` are never transformed.
  public enum KeyEncoding: Sendable {
    /// Keys are written as they are: `pageSize` stays `pageSize`. The default.
    case useDefaultKeys
    /// Camel-case keys become snake case with the same rules as `JSONEncoder.KeyEncodingStrategy`:
    /// `pageSize` → `page_size`, `myURLValue` → `my_url_value`, `userID` → `user_id`.
    case convertToSnakeCase
    /// Your own transformation, applied to every key's string value.
    ///
    /// ```swift
    /// let encoder = URLQueryEncoder(keyEncoding: .custom { $0.uppercased() })  // pageSize → PAGESIZE
    /// ```
    case custom(@Sendable (String) -> String)
  }
}
