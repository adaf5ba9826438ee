import NIOCore

/// An incremental SHA-256 (FIPS 180-4), so uploads and downloads can be hashed chunk by chunk.
///
/// The server has no crypto dependency, and Foundation has no SHA-256 on Linux; this small implementation works on
/// unsafe buffers so that it stays fast enough in debug builds.
struct SHA256: Sendable {
  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  private var state: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ]
  /// Bytes of an incomplete block, waiting for the rest of it.
  private var pending: [UInt8] = []
  /// Bytes hashed so far.
  private(set) var count: Int64 = 0

  /// Creates a hash of no bytes yet.
  init() {
    pending.reserveCapacity(64)
  }

  /// The digest of `bytes`, as lowercase hex.
  static func hex(of bytes: some Sequence<UInt8>) -> String {
    var hash = SHA256()
    hash.update(Array(bytes))
    return hash.finalizeHex()
  }

  /// Adds the readable bytes of `buffer`.
  mutating func update(_ buffer: ByteBuffer) {
    buffer.withUnsafeReadableBytes { update($0) }
  }

  /// Adds `bytes`.
  mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// Adds `bytes`.
  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    count += Int64(bytes.count)
    var offset = 0
    if !pending.isEmpty {
      let take = min(64 - pending.count, bytes.count)
      pending.append(contentsOf: bytes[0..<take])
      offset = take
      guard pending.count == 64 else { return }
      let block = pending
      block.withUnsafeBytes { compress(blocks: $0) }
      pending.removeAll(keepingCapacity: true)
    }
    let whole = (bytes.count - offset) / 64 * 64
    if whole > 0 {
      compress(blocks: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + whole]))
    }
    pending.append(contentsOf: bytes[(offset + whole)...])
  }

  /// Pads the message and returns the digest as lowercase hex; the hash must not be used afterwards.
  mutating func finalizeHex() -> String {
    let bitLength = UInt64(count) &* 8
    var tail = pending
    tail.append(0x80)
    while tail.count % 64 != 56 {
      tail.append(0)
    }
    for shift in stride(from: 56, through: 0, by: -8) {
      tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    tail.withUnsafeBytes { compress(blocks: $0) }
    pending = []
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(64)
    for word in state {
      for shift in stride(from: 28, through: 0, by: -4) {
        text.append(digits[Int((word >> UInt32(shift)) & 0xF)])
      }
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Runs the compression function over every 64-byte block of `blocks` (whose length is a multiple of 64).
  private mutating func compress(blocks: UnsafeRawBufferPointer) {
    Self.roundConstants.withUnsafeBufferPointer { constants in
      state.withUnsafeMutableBufferPointer { state in
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
          var offset = 0
          while offset < blocks.count {
            Self.compress(block: blocks.baseAddress! + offset, state: state, schedule: schedule, constants: constants)
            offset += 64
          }
        }
      }
    }
  }

  /// One block; written with `&>>`, `&<<`, `while` and raw pointers, which debug builds keep cheap (the generic
  /// `>>` and range iterators are function calls there).
  private static func compress(
    block: UnsafeRawPointer,
    state: UnsafeMutableBufferPointer<UInt32>,
    schedule: UnsafeMutableBufferPointer<UInt32>,
    constants: UnsafeBufferPointer<UInt32>
  ) {
    let w = schedule.baseAddress!
    let k = constants.baseAddress!
    var t = 0
    while t < 16 {
      w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
      t &+= 1
    }
    while t < 64 {
      let x = w[t &- 15]
      let y = w[t &- 2]
      let s0 = (x &>> 7 | x &<< 25) ^ (x &>> 18 | x &<< 14) ^ (x &>> 3)
      let s1 = (y &>> 17 | y &<< 15) ^ (y &>> 19 | y &<< 13) ^ (y &>> 10)
      w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
      t &+= 1
    }
    let h0 = state.baseAddress!
    var a = h0[0]
    var b = h0[1]
    var c = h0[2]
    var d = h0[3]
    var e = h0[4]
    var f = h0[5]
    var g = h0[6]
    var h = h0[7]
    t = 0
    while t < 64 {
      let s1 = (e &>> 6 | e &<< 26) ^ (e &>> 11 | e &<< 21) ^ (e &>> 25 | e &<< 7)
      let choice = (e & f) ^ (~e & g)
      let t1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
      let s0 = (a &>> 2 | a &<< 30) ^ (a &>> 13 | a &<< 19) ^ (a &>> 22 | a &<< 10)
      let majority = (a & b) ^ (a & c) ^ (b & c)
      h = g
      g = f
      f = e
      e = d &+ t1
      d = c
      c = b
      b = a
      a = t1 &+ s0 &+ majority
      t &+= 1
    }
    h0[0] &+= a
    h0[1] &+= b
    h0[2] &+= c
    h0[3] &+= d
    h0[4] &+= e
    h0[5] &+= f
    h0[6] &+= g
    h0[7] &+= h
  }
}
