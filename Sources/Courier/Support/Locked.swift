#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a lock, for the few places where state is shared with callbacks that are not async
/// (URLSession delegates, cancellation handlers). `Mutex` needs macOS 15 / iOS 18, above our deployment targets.
///
/// The value and its lock live in one allocation (`os_unfair_lock` on Apple platforms, a `pthread_mutex_t`
/// elsewhere), where `NSLock` took three on Linux (the box, the lock object and its mutex): every call makes one for
/// its events. Copies share the value, as references to one lock do.
package struct Locked<Value>: @unchecked Sendable {  // @unchecked: every access to the value goes through the lock.
  private let storage: Storage

  package init(_ value: Value) {
    storage = Storage.make(value)
  }

  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try storage.withUnsafeMutablePointers { value, lock in
      LockPrimitive.lock(lock)
      defer { LockPrimitive.unlock(lock) }
      return try body(&value.pointee)
    }
  }

  /// The value as the header and the lock as the one element of a buffer.
  private final class Storage: ManagedBuffer<Value, LockPrimitive.Lock> {
    static func make(_ value: Value) -> Storage {
      let buffer = create(minimumCapacity: 1) { _ in value }
      let storage = unsafeDowncast(buffer, to: Storage.self)
      storage.withUnsafeMutablePointerToElements { LockPrimitive.initialize($0) }
      return storage
    }

    deinit {
      // The header (the value) is destroyed by `ManagedBuffer`; the element (the lock) is ours to destroy.
      withUnsafeMutablePointerToElements { LockPrimitive.destroy($0) }
    }
  }
}

/// The platform's plain mutual-exclusion lock, used in place.
private enum LockPrimitive {
  #if canImport(Darwin)
  typealias Lock = os_unfair_lock

  static func initialize(_ lock: UnsafeMutablePointer<Lock>) { lock.initialize(to: os_unfair_lock()) }
  static func destroy(_ lock: UnsafeMutablePointer<Lock>) { lock.deinitialize(count: 1) }
  static func lock(_ lock: UnsafeMutablePointer<Lock>) { os_unfair_lock_lock(lock) }
  static func unlock(_ lock: UnsafeMutablePointer<Lock>) { os_unfair_lock_unlock(lock) }
  #else
  typealias Lock = pthread_mutex_t

  static func initialize(_ lock: UnsafeMutablePointer<Lock>) {
    lock.initialize(to: pthread_mutex_t())
    let error = pthread_mutex_init(lock, nil)
    precondition(error == 0, "pthread_mutex_init failed with \(error)")
  }

  static func destroy(_ lock: UnsafeMutablePointer<Lock>) {
    pthread_mutex_destroy(lock)
    lock.deinitialize(count: 1)
  }

  static func lock(_ lock: UnsafeMutablePointer<Lock>) {
    let error = pthread_mutex_lock(lock)
    precondition(error == 0, "pthread_mutex_lock failed with \(error)")
  }

  static func unlock(_ lock: UnsafeMutablePointer<Lock>) {
    let error = pthread_mutex_unlock(lock)
    precondition(error == 0, "pthread_mutex_unlock failed with \(error)")
  }
  #endif
}
