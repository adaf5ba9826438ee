import Foundation
import GRDB
import HTTPTypes

// How the outbox's rows become its types, and how header fields are stored.
extension SQLiteOutboxStore {
  static func item(_ row: Row) throws -> OutboxItem {
    let method: String = row["method"]
    let state: String = row["state"]
    let status: Int? = row["response_status"]
    let after: Int64? = row["after_id"]
    return OutboxItem(
      id: OutboxItem.ID(rawValue: row["id"]), lane: row["lane"], kind: row["kind"], kindVersion: row["kind_version"],
      method: HTTPRequest.Method(method) ?? .post, target: row["target"],
      headerFields: try FieldCoding.decode(row["headers"]), bodyLength: row["body_length"],
      idempotencyKey: row["idempotency_key"], after: after.map(OutboxItem.ID.init(rawValue:)),
      state: OutboxItem.State(rawValue: state) ?? .quarantined, attempts: row["attempts"],
      enqueuedAt: Date(timeIntervalSince1970: row["enqueued_at"]),
      nextAttemptAt: Date(timeIntervalSince1970: row["next_attempt_at"]),
      responseStatus: status.map { HTTPResponse.Status(code: $0) }, reason: row["reason"])
  }

  /// A lane's first item, from a row that also holds its dependency's state.
  static func candidate(_ row: Row) throws -> Candidate {
    let dependency = (row["dependency_state"] as String?).flatMap(OutboxItem.State.init(rawValue:))
    let held: Double? = row["held_until"]
    return Candidate(
      item: try item(row), constraints: constraints(row), dependency: dependency,
      heldUntil: held.map(Date.init(timeIntervalSince1970:)))
  }

  static func storedRequest(_ row: Row) throws -> StoredRequest {
    let method: String = row["method"]
    return StoredRequest(
      method: HTTPRequest.Method(method) ?? .post, target: row["target"],
      headerFields: try FieldCoding.decode(row["headers"]), body: row["body"], bodyDigest: row["body_digest"],
      idempotencyKey: row["idempotency_key"])
  }

  static func constraints(_ row: Row) -> OutboxConstraints {
    let notBefore: Double? = row["not_before"]
    let giveUpAfter: Double? = row["give_up_after"]
    let rule: String = row["if_dependency_fails"]
    return OutboxConstraints(
      allowsExpensiveNetwork: row["allows_expensive"], allowsConstrainedNetwork: row["allows_constrained"],
      notBefore: notBefore.map(Date.init(timeIntervalSince1970:)),
      giveUpAfter: giveUpAfter.map(Date.init(timeIntervalSince1970:)),
      ifDependencyFails: DependencyFailure(rawValue: rule) ?? .cancel)
  }
}

/// Header fields as stored: a JSON array of `[name, value]` pairs, in order.
enum FieldCoding {
  static func encode(_ fields: HTTPFields) -> Data {
    guard !fields.isEmpty else { return Data("[]".utf8) }
    return (try? JSONEncoder().encode(fields.map { [$0.name.rawName, $0.value] })) ?? Data("[]".utf8)
  }

  static func decode(_ data: Data?) throws -> HTTPFields {
    guard let data, data.count > 2 else { return HTTPFields() }
    let pairs = try JSONDecoder().decode([[String]].self, from: data)
    var fields = HTTPFields()
    for pair in pairs where pair.count == 2 {
      if let name = HTTPField.Name(pair[0]) { fields.append(HTTPField(name: name, value: pair[1])) }
    }
    return fields
  }
}
