import Hummingbird
import NIOCore

/// Hummingbird's basic context plus the connection, which a refused body closes (see `EventsRoute`).
struct CollectRequestContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  let channel: any Channel

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
}
