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

  /// How the keys of structs, classes and dictionaries are transformed before they are written.
  ///
  /// Names in a hand-written `QueryParameters` are never transformed.
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
