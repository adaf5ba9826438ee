/// MIME types for common file extensions, for parts whose type was not given.
enum MIMEType {
  static func forFileName(_ name: String) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.index(before: name.endIndex) else {
      return "application/octet-stream"
    }
    return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
  }

  static let byExtension: [String: String] = [
    "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
    "heic": "image/heic", "heif": "image/heif", "svg": "image/svg+xml", "bmp": "image/bmp", "tif": "image/tiff",
    "tiff": "image/tiff", "ico": "image/vnd.microsoft.icon", "avif": "image/avif",
    "mp4": "video/mp4", "m4v": "video/x-m4v", "mov": "video/quicktime", "webm": "video/webm", "avi": "video/x-msvideo",
    "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav", "ogg": "audio/ogg",
    "flac": "audio/flac", "opus": "audio/opus",
    "txt": "text/plain", "csv": "text/csv", "html": "text/html", "htm": "text/html", "css": "text/css",
    "md": "text/markdown", "xml": "application/xml", "json": "application/json", "js": "text/javascript",
    "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
    "doc": "application/msword", "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "ppt": "application/vnd.ms-powerpoint",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "rtf": "application/rtf", "epub": "application/epub+zip", "wasm": "application/wasm",
    "bin": "application/octet-stream",
  ]
}
