import Foundation

/// One named value of a form: text, or binary content that only a multipart body can carry.
struct FormField: Sendable {
  var name: String
  var value: FormFieldValue
}

enum FormFieldValue: Sendable {
  case text(String)
  case binary(FormBinary)
}

/// Binary content found while encoding: raw `Data` or a ``MultipartFile``.
enum FormBinary: Sendable {
  case data(Data)
  case attachment(MultipartFile)

  /// How the value reads in an error message.
  var summary: String {
    switch self {
    case .data(let data): return "Data (\(data.count) bytes)"
    case .attachment(let attachment): return "File \"\(attachment.fileName)\""
    }
  }
}
