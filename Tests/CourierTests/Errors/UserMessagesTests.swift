import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// Courier's messages for people in English and Russian, and an app's replacements.
@Suite struct UserMessagesTests {
  static let kinds: [(CourierError.Kind, String, String)] = [
    (
      .noConnection, "You appear to be offline. Check your connection and try again.",
      "Похоже, нет подключения к интернету. Проверьте соединение и попробуйте ещё раз."
    ),
    (
      .timeout, "The server took too long to respond. Please try again.",
      "Сервер слишком долго не отвечает. Попробуйте ещё раз."
    ),
    (.connectionLost, "The connection was lost. Please try again.", "Соединение прервалось. Попробуйте ещё раз."),
    (.cancelled, "The request was cancelled.", "Запрос отменён."),
    (
      .tls, "A secure connection to the server could not be made.",
      "Не удалось установить защищённое соединение с сервером."
    ),
    (.decoding, "The server's response could not be read.", "Не удалось прочитать ответ сервера."),
    (.unauthorized, "Please sign in again.", "Пожалуйста, войдите снова."),
    (.notCached, "This isn't available offline.", "Это недоступно без подключения к интернету."),
    (.integrity, "The download was damaged. Please try again.", "Файл загрузился с ошибками. Попробуйте ещё раз."),
    (.fileSystem, "The file could not be saved.", "Не удалось сохранить файл."),
    (
      .redirect, "The server sent the request somewhere it could not follow.",
      "Сервер перенаправил запрос туда, куда нельзя перейти."
    ),
    (.responseTooLarge, "The server's response was too large.", "Ответ сервера слишком большой."),
    (
      .keychain, "Your sign-in details could not be read or saved on this device.",
      "Не удалось прочитать или сохранить данные для входа на этом устройстве."
    ),
    (.invalidURL, "The request could not be created.", "Не удалось составить запрос."),
    (.invalidRequest, "The request could not be created.", "Не удалось составить запрос."),
    (.encoding, "The request could not be created.", "Не удалось составить запрос."),
    (.transport, "Something went wrong. Please try again.", "Что-то пошло не так. Попробуйте ещё раз."),
  ]

  static let statuses: [(Int, String, String)] = [
    (400, "The request was not accepted by the server.", "Сервер не принял запрос."),
    (401, "Please sign in again.", "Пожалуйста, войдите снова."),
    (403, "You don't have permission to do that.", "У вас нет прав на это действие."),
    (404, "The requested item could not be found.", "Запрошенное не найдено."),
    (
      408, "The server took too long to respond. Please try again.",
      "Сервер слишком долго не отвечает. Попробуйте ещё раз."
    ),
    (409, "That conflicts with something that already exists.", "Это противоречит уже существующим данным."),
    (413, "That is too large to send.", "Это слишком большой объём для отправки."),
    (422, "Some of the information is not valid.", "Часть данных указана неверно."),
    (
      429, "Too many requests. Please wait a moment and try again.",
      "Слишком много запросов. Подождите немного и попробуйте ещё раз."
    ),
    (500, "The server had a problem. Please try again later.", "На сервере произошла ошибка. Попробуйте позже."),
    (503, "The server had a problem. Please try again later.", "На сервере произошла ошибка. Попробуйте позже."),
    (418, "The request could not be completed (status 418).", "Не удалось выполнить запрос (статус 418)."),
  ]

  func error(_ kind: CourierError.Kind, status: Int? = nil, language: String) -> CourierError {
    var error = CourierError(kind, "detail", response: status.map { HTTPResponse(status: .init(code: $0)) })
    error.messages = UserMessages(language: language)
    return error
  }

  @Test func everyKindHasItsEnglishAndRussianMessage() {
    for (kind, english, russian) in Self.kinds {
      #expect(error(kind, language: "en").userMessage == english, "\(kind)")
      #expect(error(kind, language: "ru").userMessage == russian, "\(kind)")
    }
  }

  @Test func commonStatusesHaveTheirEnglishAndRussianMessage() {
    for (code, english, russian) in Self.statuses {
      #expect(error(.unacceptableStatus, status: code, language: "en").userMessage == english, "\(code)")
      #expect(error(.unacceptableStatus, status: code, language: "ru").userMessage == russian, "\(code)")
    }
  }

  @Test func theLanguageIsOneCourierShips() {
    #expect(UserMessages.availableLanguages.contains(UserMessages().language))
    #expect(UserMessages(language: "ru").language == "ru")
    #expect(UserMessages(language: "xx").language != "xx", "an unknown language falls back")
  }

  @Test func anAppReplacesMessagesByStatusAndByKind() async throws {
    let transport = StubTransport(
      .get("/missing").reply(.status(.notFound)),
      .get("/broken").reply(.status(.internalServerError)),
      .get("/teapot").reply(.status(.init(code: 418)))
    )
    let client = APIClient.testing(transport: transport) {
      $0.messageLanguage = "ru"
      $0.kindMessages[.noConnection] = "Нет сети — покажем сохранённое"
      $0.kindMessages[.unacceptableStatus] = "Сервер отдыхает"
      $0.statusMessages[.notFound] = "Такой страницы нет"
    }
    func message(_ endpoint: Endpoint<Data>) async -> String? {
      do {
        _ = try await client.send(endpoint)
        return nil
      } catch let error as CourierError {
        return error.userMessage
      } catch {
        return nil
      }
    }
    #expect(await message(Endpoint<Data>.get("/missing")) == "Такой страницы нет", "by status first")
    #expect(await message(Endpoint<Data>.get("/broken")) == "Сервер отдыхает", "then by kind")
    #expect(
      await message(Endpoint<Data>.get("/teapot").message(for: .init(code: 418), "Чайник")) == "Чайник",
      "the endpoint's own message comes first")
  }

  /// A bundle with `Localizable.strings` tables written as Xcode's resource step may leave them: `en` as a binary
  /// property list, `ru` in UTF-16 with a byte-order mark.
  func convertedBundle(english: [String: String], russian: [String: String]) throws -> (Bundle, URL) {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-messages-\(UUID().uuidString)")
    for language in ["en", "ru"] {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent("\(language).lproj"), withIntermediateDirectories: true)
    }
    let binary = try PropertyListSerialization.data(fromPropertyList: english, format: .binary, options: 0)
    #expect(binary.starts(with: Array("bplist".utf8)))
    try binary.write(to: root.appendingPathComponent("en.lproj/Localizable.strings"))
    let lines = russian.sorted { $0.key < $1.key }.map { "\"\($0.key)\" = \"\($0.value)\";" }
    let utf16 = try #require(lines.joined(separator: "\n").data(using: .utf16))
    #expect(utf16.starts(with: [0xFF, 0xFE]) || utf16.starts(with: [0xFE, 0xFF]), "a byte-order mark")
    try utf16.write(to: root.appendingPathComponent("ru.lproj/Localizable.strings"))
    return (try #require(Bundle(path: root.path)), root)
  }

  @Test func tablesXcodeConvertedAreReadInBothLanguages() throws {
    let (bundle, root) = try convertedBundle(
      english: ["kind.timeout": "Too slow.", "kind.other": "Oops."],
      russian: ["kind.timeout": "Слишком долго.", "kind.other": "Ой."])
    defer { try? FileManager.default.removeItem(at: root) }
    var english = CourierError(.timeout, "detail")
    english.messages = UserMessages(language: "en", bundle: bundle)
    var russian = CourierError(.timeout, "detail")
    russian.messages = UserMessages(language: "ru", bundle: bundle)
    #expect(english.userMessage == "Too slow.")
    #expect(russian.userMessage == "Слишком долго.")
  }

  @Test func aSentenceMissingFromALanguageComesInEnglishThenAsADefaultNeverAsItsKey() throws {
    let (bundle, root) = try convertedBundle(
      english: ["kind.timeout": "Too slow.", "status.404": "Not here."],
      russian: ["kind.cancelled": "Отменено."])
    defer { try? FileManager.default.removeItem(at: root) }
    let messages = UserMessages(language: "ru", bundle: bundle)
    func message(_ kind: CourierError.Kind, status: Int? = nil) -> String {
      var error = CourierError(kind, "detail", response: status.map { HTTPResponse(status: .init(code: $0)) })
      error.messages = messages
      return error.userMessage
    }
    #expect(message(.cancelled) == "Отменено.", "the chosen language first")
    #expect(message(.timeout) == "Too slow.", "then English")
    #expect(message(.unacceptableStatus, status: 404) == "Not here.")
    #expect(message(.tls) == "Something went wrong. Please try again.", "then a readable default")
    #expect(message(.invalidRequest) == "Something went wrong. Please try again.")
    #expect(message(.unacceptableStatus, status: 418) == "The request could not be completed (status 418).")
    #expect(message(.unacceptableStatus, status: 503) == "The request could not be completed (status 503).")
  }

  @Test func aBundleWithoutTablesStillGivesReadableSentences() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-empty-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let messages = UserMessages(language: "en", bundle: try #require(Bundle(path: root.path)))
    for (kind, _, _) in Self.kinds {
      var error = CourierError(kind, "detail")
      error.messages = messages
      #expect(!error.userMessage.contains("kind."), "\(kind): \(error.userMessage)")
      #expect(!error.userMessage.isEmpty)
    }
  }
}
