import ArgumentParser

/// `HOST:PORT` for `--listen`; an IPv6 host goes in brackets (`[::1]:8787`).
struct ListenAddress: ExpressibleByArgument {
  var host: String
  var port: Int

  init?(argument: String) {
    guard let colon = argument.lastIndex(of: ":"), let port = Int(argument[argument.index(after: colon)...]),
      (0...65_535).contains(port)
    else { return nil }
    var host = String(argument[..<colon])
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty else { return nil }
    self.host = host
    self.port = port
  }
}
