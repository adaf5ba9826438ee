import Courier
import Foundation

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension APIClient {
  /// A publisher of the decoded value of `endpoint`: one value then `.finished`, or a `CourierError`.
  ///
  /// ```swift
  /// client.publisher(for: Endpoint<User>.get("/users/me"))
  ///   .receive(on: DispatchQueue.main)
  ///   .sink { completion in
  ///     if case .failure(let error) = completion { self.message = error.userMessage }
  ///   } receiveValue: { user in
  ///     self.user = user
  ///   }
  ///   .store(in: &cancellables)
  /// ```
  ///
  /// The request is sent when a subscriber asks for a value, once per subscriber; cancelling the subscription
  /// cancels the request. On Linux the types come from OpenCombine: `import OpenCombine` where you subscribe.
  public func publisher<Value>(for endpoint: Endpoint<Value>) -> AnyPublisher<Value, CourierError> {
    SendPublisher { try await self.send(endpoint).value }.eraseToAnyPublisher()
  }

  /// A publisher of the whole `APIResponse` of `endpoint` (value, body bytes, status, headers), or a
  /// `CourierError`.
  ///
  /// ```swift
  /// client.responsePublisher(for: Endpoint<ProductPage>.get("/products"))
  ///   .map { $0.link("next") }
  ///   .sink(receiveCompletion: { _ in }, receiveValue: { next in self.nextPage = next })
  ///   .store(in: &cancellables)
  /// ```
  public func responsePublisher<Value>(for endpoint: Endpoint<Value>) -> AnyPublisher<APIResponse<Value>, CourierError>
  {
    SendPublisher { try await self.send(endpoint) }.eraseToAnyPublisher()
  }

  /// A publisher of the decoded value of an `EndpointConvertible` call, decoded as `type`.
  ///
  /// ```swift
  /// client.publisher(for: MovieAPI.movie(id: 42), as: Movie.self)
  /// ```
  public func publisher<Value: Decodable & Sendable>(
    for target: some EndpointConvertible,
    as type: Value.Type = Value.self
  ) -> AnyPublisher<Value, CourierError> {
    publisher(for: target.endpoint(as: type))
  }

  /// A publisher of the whole `APIResponse` of an `EndpointConvertible` call, decoded as `type`.
  public func responsePublisher<Value: Decodable & Sendable>(
    for target: some EndpointConvertible,
    as type: Value.Type = Value.self
  ) -> AnyPublisher<APIResponse<Value>, CourierError> {
    responsePublisher(for: target.endpoint(as: type))
  }
}
