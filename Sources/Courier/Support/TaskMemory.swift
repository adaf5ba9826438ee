/// Room in a new task's allocator for the frames of a whole call, made with one allocation instead of one per
/// kilobyte.
///
/// A task keeps the frames of its async functions in a stack allocator that grows by slabs of about 1 KB, each a
/// `malloc` of its own, and keeps a slab it has emptied for its next frames. A call's task (the one its deadline can
/// cancel) starts with no slab and holds about 17 KB of frames at its deepest: Courier's pipeline and the engine's
/// own, AsyncHTTPClient's included. Grown a kilobyte at a time, that was 17 `malloc`s and 17 `free`s per call, most
/// of them past the C allocator's per-thread cache: about 10,000 of the 686,000 instructions of a decoded GET over
/// AsyncHTTPClient (without the runtime's metadata-cache probing). Entering one async function whose frame is large,
/// first thing in the task, leaves the task one emptied slab that large, which every later frame of the call fits in.
enum TaskMemory {
  /// 24 KiB of frame: what a GET over AsyncHTTPClient or URLSession holds at its deepest, with room to spare.
  struct Block {
    typealias Words = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    typealias Eighth = (Words, Words, Words, Words, Words, Words, Words, Words)
    typealias KiB = (Eighth, Eighth)
    typealias EightKiB = (KiB, KiB, KiB, KiB, KiB, KiB, KiB, KiB)
    var storage: (EightKiB, EightKiB, EightKiB)
  }

  /// Gives the current task an emptied slab of a ``Block``'s size for its later frames. Call it first thing in a new
  /// task; nothing is written to the block.
  @inline(never)
  static func reserve() async {
    do { _ = try await frame() } catch {}
  }

  /// Throws before writing anything. What counts is the room its caller sets aside for the block it would return:
  /// the call is a potential suspension point, so that room is in the caller's async frame, taken from the task's
  /// allocator. Not optimized, so the room is not taken away; a typed error, so throwing allocates nothing.
  @inline(never) @_optimize(none)
  private static func frame() async throws(NoBlock) -> Block { throw NoBlock() }

  /// What ``frame()`` always throws.
  struct NoBlock: Error {}
}
