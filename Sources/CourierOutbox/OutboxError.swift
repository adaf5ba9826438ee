import Courier
import Foundation
import HTTPTypes

/// Why the outbox refused or gave up on something: a typed kind, a message that says what was wrong, and the answer or
/// failure behind it.
public struct OutboxError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kinds of failure; new kinds may be added.
  public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The kind's name.
    public let rawValue: String
    /// The kind named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name.
    public var description: String { rawValue }

    /// The request cannot be stored: a body that can be read only once, or a URL outside the client's base URL.
    public static let invalidRequest = Kind(rawValue: "invalidRequest")
    /// The server refused the item for good (a 4xx other than those retried); the answer is kept.
    public static let rejected = Kind(rawValue: "rejected")
    /// A value the item binds from an earlier item's answer (``OutboxBinding``) is not in that answer; the item is
    /// never sent with its placeholder in it.
    public static let bindingFailed = Kind(rawValue: "bindingFailed")
    /// The item reached a limit: its attempts, its age, its deadline, or the bytes the outbox may hold.
    public static let limitReached = Kind(rawValue: "limitReached")
    /// The item waited longer than the server keeps idempotency keys, and the reconcile hook dead-lettered it.
    public static let keyExpired = Kind(rawValue: "keyExpired")
    /// The database cannot be read: it is not a database, or it is damaged. The file is left as it is.
    public static let corruptStore = Kind(rawValue: "corruptStore")
    /// The database was written by a newer version of the outbox. The file is left as it is.
    public static let newerSchema = Kind(rawValue: "newerSchema")
    /// The store failed to read or write.
    public static let storeFailure = Kind(rawValue: "storeFailure")
    /// No database server answered: the address is wrong, or the server is not running. The message says what to
    /// check.
    public static let storeUnreachable = Kind(rawValue: "storeUnreachable")
    /// The database server refused the credentials, or the rights to the outbox's tables.
    public static let storeAccessDenied = Kind(rawValue: "storeAccessDenied")
    /// The database or schema the outbox was given does not exist.
    public static let storeNotFound = Kind(rawValue: "storeNotFound")
    /// No item has that ID, or it is not in a state that allows what was asked.
    public static let noSuchItem = Kind(rawValue: "noSuchItem")
  }

  /// What kind of failure.
  public let kind: Kind
  /// What was wrong, in a sentence.
  public let message: String
  /// The answer's status, when the server answered.
  public let status: HTTPResponse.Status?

  /// A failure of `kind`.
  public init(_ kind: Kind, _ message: String, status: HTTPResponse.Status? = nil) {
    self.kind = kind
    self.message = message
    self.status = status
  }

  /// `kind: message`.
  public var description: String { "\(kind): \(message)" }
}
