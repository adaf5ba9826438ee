#if SQLiteOutbox
import Foundation
import GRDB
import HTTPTypes

// How the outbox's rows become its types, and how header fields are stored.
extension SQLiteOutboxStore {
  /// The columns ``item(_:)`` reads, in the order it reads them: a query selects them first, so that a row is decoded
  /// by position, not by looking each column's name up.
  static let itemColumns = columnNames.joined(separator: ", ")
  /// ``itemColumns`` of the table named `i` in a query.
  static let itemColumnsOfI = columnNames.map { "i." + $0 }.joined(separator: ", ")

  private static let columnNames = [
    "id", "lane", "kind", "kind_version", "method", "target", "headers", "body_length", "idempotency_key", "after_id",
    "state", "attempts", "enqueued_at", "next_attempt_at", "response_status", "reason", "not_before", "give_up_after",
    "if_dependency_fails", "allows_expensive", "allows_constrained", "held_until", "handed_off_at",
  ]

  /// The position of the column a candidate's query selects after the item's: its dependency's state.
  static let dependencyStateColumn = columnNames.count

  /// The item of a row that starts with ``itemColumns``.
  static func item(_ row: Row) throws -> OutboxItem {
    let method: String = row[4]
    let state: String = row[10]
    let status: Int? = row[14]
    let after: Int64? = row[9]
    return OutboxItem(
      id: OutboxItem.ID(rawValue: row[0]), lane: row[1], kind: row[2], kindVersion: row[3],
      method: HTTPRequest.Method(method) ?? .post, target: row[5],
      headerFields: try FieldCoding.decode(row[6]), bodyLength: row[7],
      idempotencyKey: row[8], after: after.map(OutboxItem.ID.init(rawValue:)),
      state: OutboxItem.State(rawValue: state) ?? .quarantined, attempts: row[11],
      enqueuedAt: Date(timeIntervalSince1970: row[12]),
      nextAttemptAt: Date(timeIntervalSince1970: row[13]),
      responseStatus: status.map { HTTPResponse.Status(code: $0) }, reason: row[15])
  }

  /// A lane's first item, from a row that starts with ``itemColumns`` followed by its dependency's state.
  static func candidate(_ row: Row) throws -> Candidate {
    let dependency = (row[dependencyStateColumn] as String?).flatMap(OutboxItem.State.init(rawValue:))
    let held: Double? = row[21]
    let handedOffAt: Double? = row[22]
    return Candidate(
      item: try item(row), constraints: constraints(row), dependency: dependency,
      heldUntil: held.map(Date.init(timeIntervalSince1970:)), handedOff: handedOffAt != nil)
  }

  static func constraints(_ row: Row) -> OutboxConstraints {
    let notBefore: Double? = row[16]
    let giveUpAfter: Double? = row[17]
    let rule: String = row[18]
    return OutboxConstraints(
      allowsExpensiveNetwork: row[19], allowsConstrainedNetwork: row[20],
      notBefore: notBefore.map(Date.init(timeIntervalSince1970:)),
      giveUpAfter: giveUpAfter.map(Date.init(timeIntervalSince1970:)),
      ifDependencyFails: DependencyFailure(rawValue: rule) ?? .cancel)
  }
}
#endif
