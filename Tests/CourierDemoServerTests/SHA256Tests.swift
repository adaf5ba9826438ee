import Testing

@testable import CourierDemoServer

@Suite struct SHA256Tests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func nistVectors(message: String, digest: String) {
    #expect(SHA256Digest.hex(of: Array(message.utf8)) == digest)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func millionAsInPieces() {
    var hash = SHA256Digest()
    let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000)
    for _ in 0..<1_000 {
      hash.update(piece)
    }
    #expect(hash.count == 1_000_000)
    #expect(hash.finalizeHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [1, 3, 55, 56, 63, 64, 65, 127, 1_000])
  func splittingDoesNotMatter(pieceSize: Int) {
    let bytes = TransferTestSupport.pattern(3_001)
    var hash = SHA256Digest()
    var start = 0
    while start < bytes.count {
      hash.update(Array(bytes[start..<min(start + pieceSize, bytes.count)]))
      start += pieceSize
    }
    #expect(hash.finalizeHex() == SHA256Digest.hex(of: bytes))
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test(arguments: [
    (Int64(0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    (1, "ca358758f6d27e6cf45272937977a748fd88391db679ceda7dc7bf1f005ee879"),
    (1_000, "5097e7d587352f5097062ae679f37bda5802d9f875aba14c8cb4d1a188ada179"),
    (65_536, "ef4636928161808e87035fa51983821677527ccd9661991c5d0126a778b2268a"),
    (65_537, "74f3260f4a9adaf7271c910ba2d111dbae7a176afb487e1b7f655897eadf1093"),
    (200_000, "8f9d1bf454d63cd9fc6edbe8f3f2331cc1f9b195c7ec90533717bf243ae966c7"),
  ])
  @available(macOS 14, iOS 17, tvOS 17, *)
  func downloadPatternDigests(length: Int64, digest: String) async {
    // Reference digests from Python's hashlib over bytes((i * 31 + 7) % 256 for i in range(length)).
    #expect(await DownloadPattern.sha256(length: length) == digest)
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test func patternChunksAreSlicesAtAnyOffset() {
    for offset: Int64 in [0, 1, 255, 256, 257, 70_000, 8 << 30 - 5] {
      let chunk = DownloadPattern.chunk(at: offset, count: 300)
      #expect(Array(chunk.readableBytesView) == TransferTestSupport.pattern(300, from: offset))
    }
    #expect(DownloadPattern.chunk(at: 12, count: DownloadPattern.chunkSize).readableBytes == DownloadPattern.chunkSize)
  }
}
