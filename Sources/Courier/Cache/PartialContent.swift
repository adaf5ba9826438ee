import Foundation
import HTTPTypes

/// The one byte range a `Range` request field asks for (RFC 9110 §14.1.2): `bytes=first-last`, `bytes=first-` or
/// `bytes=-suffix`. Anything else (another unit, several ranges, a malformed field) is `nil`, and the cache
/// forwards the request as it is.
struct ByteRangeRequest: Equatable, Sendable {
  enum Kind: Equatable, Sendable {
    case from(Int, through: Int?)
    case suffix(Int)
  }

  let kind: Kind

  init?(_ lines: [String]) {
    guard lines.count == 1 else { return nil }
    let field = lines[0].trimmingCharacters(in: .whitespaces)
    guard let equals = field.firstIndex(of: "="),
      field[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "bytes"
    else { return nil }
    let spec = field[field.index(after: equals)...].trimmingCharacters(in: .whitespaces)
    guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
    let first = spec[..<dash]
    let last = spec[spec.index(after: dash)...]
    if first.isEmpty {
      guard let suffix = Self.number(last), suffix > 0 else { return nil }
      kind = .suffix(suffix)
    } else {
      guard let start = Self.number(first) else { return nil }
      if last.isEmpty {
        kind = .from(start, through: nil)
      } else {
        guard let end = Self.number(last), end >= start else { return nil }
        kind = .from(start, through: end)
      }
    }
  }

  /// The bytes asked for in a representation of `length` bytes, or `nil` when the range is unsatisfiable.
  func resolved(length: Int) -> Range<Int>? {
    switch kind {
    case .from(let start, let end):
      guard start < length else { return nil }
      return start..<(min(end ?? (length - 1), length - 1) + 1)
    case .suffix(let count):
      guard length > 0 else { return nil }
      return (length - min(count, length))..<length
    }
  }

  /// A run of ASCII digits that fits in an `Int`.
  static func number<S: StringProtocol>(_ text: S) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return Int(text)
  }
}

extension ContentRange {
  /// The one range of a 206's `Content-Range` field lines, with a known complete length; `nil` for anything else.
  static func part(_ lines: [String]) -> (bytes: Range<Int>, completeLength: Int)? {
    guard lines.count == 1, let parsed = ContentRange(lines[0]), let first = parsed.first, let last = parsed.last,
      let total = parsed.total, let length = Int(exactly: total), let lower = Int(exactly: first),
      let upper = Int(exactly: last)
    else { return nil }
    return (lower..<(upper + 1), length)
  }

  /// The field value for `bytes` of a representation of `completeLength` bytes.
  static func field(_ bytes: Range<Int>, completeLength: Int) -> String {
    "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(completeLength)"
  }
}

/// The parts of one representation the cache holds (RFC 9111 §3.3, §3.4): disjoint byte ranges, kept in order, and
/// their bytes one after another. Stored as an entry whose head carries the ranges in ``fieldName``.
struct StoredParts: Equatable, Sendable {
  /// The private field in a stored head listing the complete length and the ranges held:
  /// `1000; 0-99, 200-299`. It never leaves the cache.
  static let fieldName = HTTPField.Name("Courier-Stored-Parts")!

  var completeLength: Int
  /// Sorted, disjoint and never adjacent.
  var ranges: [Range<Int>]
  /// The bytes of `ranges`, one after another.
  var data: Data

  init(completeLength: Int, ranges: [Range<Int>], data: Data) {
    self.completeLength = completeLength
    self.ranges = ranges
    self.data = data
  }

  /// The parts described by a stored head's ``fieldName`` and held in `body`; `nil` when the field is missing or
  /// does not match the body.
  init?(field: String?, body: Data) {
    guard let field else { return nil }
    let halves = field.split(separator: ";", maxSplits: 1)
    guard halves.count == 2, let length = ByteRangeRequest.number(halves[0].trimmingCharacters(in: .whitespaces))
    else { return nil }
    var ranges: [Range<Int>] = []
    for member in halves[1].split(separator: ",") {
      let ends = member.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
      guard ends.count == 2, let first = ByteRangeRequest.number(ends[0]), let last = ByteRangeRequest.number(ends[1]),
        first <= last, length > last, first >= ranges.last?.upperBound ?? 0
      else { return nil }
      ranges.append(first..<(last + 1))
    }
    guard !ranges.isEmpty, ranges.reduce(0, { $0 + $1.count }) == body.count else { return nil }
    self.init(completeLength: length, ranges: ranges, data: body)
  }

  /// The value of ``fieldName`` for these parts.
  var field: String {
    "\(completeLength); " + ranges.map { "\($0.lowerBound)-\($0.upperBound - 1)" }.joined(separator: ", ")
  }

  /// Whether the parts make up the whole representation.
  var isComplete: Bool { ranges == [0..<completeLength] }

  /// The bytes of `wanted` when one held range covers it.
  func bytes(_ wanted: Range<Int>) -> Data? {
    var offset = 0
    for range in ranges {
      if range.contains(wanted.lowerBound), wanted.upperBound <= range.upperBound {
        let start = data.startIndex + offset + (wanted.lowerBound - range.lowerBound)
        return data.subdata(in: start..<(start + wanted.count))
      }
      offset += range.count
    }
    return nil
  }

  /// These parts with `part` (the bytes of `range`) added; overlapping and adjacent ranges become one.
  func adding(_ part: Data, at range: Range<Int>) -> StoredParts {
    var pieces: [(range: Range<Int>, data: Data)] = []
    var offset = data.startIndex
    for held in ranges {
      pieces.append((held, data.subdata(in: offset..<(offset + held.count))))
      offset += held.count
    }
    pieces.append((range, part))
    pieces.sort { $0.range.lowerBound < $1.range.lowerBound }
    var merged: [(range: Range<Int>, data: Data)] = []
    for piece in pieces {
      guard let last = merged.last, piece.range.lowerBound <= last.range.upperBound else {
        merged.append(piece)
        continue
      }
      guard piece.range.upperBound > last.range.upperBound else { continue }
      let skip = last.range.upperBound - piece.range.lowerBound
      var data = last.data
      data.append(piece.data.subdata(in: (piece.data.startIndex + skip)..<piece.data.endIndex))
      merged[merged.count - 1] = (last.range.lowerBound..<piece.range.upperBound, data)
    }
    return StoredParts(
      completeLength: completeLength, ranges: merged.map(\.range),
      data: merged.reduce(into: Data()) { $0.append($1.data) })
  }
}
