import Courier

/// Where one call of a concurrent batch leaves its value, so a tuple can be assembled once every call is done.
typealias BatchSlot<Value> = Locked<Value?>

/// A new, empty slot for the value of `endpoint`.
func makeBatchSlot<Value>(for endpoint: Endpoint<Value>) -> BatchSlot<Value> {
  BatchSlot(nil)
}

/// The value a finished call left in `slot`.
///
/// Only read after every child task of the batch succeeded, so an empty slot is a bug in the batch itself.
func takeValue<Value>(_ slot: BatchSlot<Value>) -> Value {
  guard let value = slot.withLock({ $0 }) else {
    preconditionFailure("A batch finished without the value of one of its calls")
  }
  return value
}
