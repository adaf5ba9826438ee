import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// The timer that fails a request whose response head has not arrived by its deadline; cancelled when the head
/// arrives, also when that happens before the timer was scheduled.
final class HeadExpiry: Sendable {
  private let state = NIOLockedValueBox<(arrived: Bool, timer: Scheduled<Void>?)>((false, nil))

  /// Keeps `timer`, or cancels it at once when the head has already arrived.
  func schedule(_ timer: Scheduled<Void>) {
    let arrived = state.withLockedValue { state in
      state.timer = timer
      return state.arrived
    }
    if arrived { timer.cancel() }
  }

  /// The head arrived (or the request ended): the timer is no longer needed.
  func headArrived() {
    state.withLockedValue { state -> Scheduled<Void>? in
      state.arrived = true
      return state.timer
    }?.cancel()
  }
}

/// The response body as AsyncHTTPClient's delegate hands it over, read as an async sequence.
typealias ResponseBodyProducer = NIOThrowingAsyncSequenceProducer<
  ByteBuffer, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, BodyDemand
>
