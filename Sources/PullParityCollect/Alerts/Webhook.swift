import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Posts a JSON body to a webhook through Foundation's URLSession (libcurl on Linux, so https
/// works with the system's certificates). A status other than 2xx is an error: the change
/// stays unannounced and is posted again after the next round.
struct Webhook: Sendable {
  let url: URL

  /// A receiver that does not answer within this is taken as down.
  static let timeoutSeconds = 10.0

  init(_ address: String) throws {
    guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
      url.host != nil
    else { throw WebhookError(message: "--alert-webhook \(address) is not an http or https URL") }
    self.url = url
  }

  func post(_ body: Data) async throws {
    var request = URLRequest(url: url, timeoutInterval: Self.timeoutSeconds)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = body
    let (_, response) = try await URLSession.shared.data(for: request)
    guard let status = (response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status) else {
      let status = (response as? HTTPURLResponse).map { String($0.statusCode) } ?? "no HTTP status"
      throw WebhookError(message: "the webhook answered \(status)")
    }
  }
}

struct WebhookError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
