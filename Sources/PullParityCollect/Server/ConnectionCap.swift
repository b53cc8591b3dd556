import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// Keeps the connections the collector holds at most `limit`, below the descriptor limit, with
/// room kept for requests that are sending: a connection past the cap closes the one idle the
/// longest (no request under way on it) to take its place, and is itself closed only when every
/// connection has a request under way. 21,000 idle connections used up the descriptors before,
/// and normal POSTs timed out.
final class ConnectionCap: Sendable {
  let limit: Int

  private struct Held {
    var channels: [ObjectIdentifier: (channel: any Channel, busy: Bool, idleSince: NIODeadline)] = [:]
  }

  private let held = NIOLockedValueBox(Held())

  init(limit: Int) {
    self.limit = limit
  }

  /// Takes `channel` in, closing the connection idle the longest, or `channel` itself, when full.
  func opened(_ channel: any Channel) {
    let victim: (any Channel)? = held.withLockedValue { held in
      held.channels[ObjectIdentifier(channel)] = (channel, false, .now())
      guard held.channels.count > limit else { return nil }
      let idle = held.channels.filter { !$0.value.busy && $0.key != ObjectIdentifier(channel) }
      guard let oldest = idle.min(by: { $0.value.idleSince < $1.value.idleSince }) else { return channel }
      held.channels[oldest.key] = nil
      return oldest.value.channel
    }
    victim?.close(promise: nil)
  }

  func requestStarted(_ channel: any Channel) { mark(channel, busy: true) }

  func requestEnded(_ channel: any Channel) { mark(channel, busy: false) }

  func closed(_ channel: any Channel) {
    _ = held.withLockedValue { $0.channels.removeValue(forKey: ObjectIdentifier(channel)) }
  }

  /// Connections held now (`/health`).
  var count: Int { held.withLockedValue { $0.channels.count } }

  private func mark(_ channel: any Channel, busy: Bool) {
    held.withLockedValue { held in
      held.channels[ObjectIdentifier(channel)]?.busy = busy
      held.channels[ObjectIdentifier(channel)]?.idleSince = .now()
    }
  }
}

/// Tells `ConnectionCap` when its connection opens, starts and ends a request, and closes.
final class ConnectionCapHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  let cap: ConnectionCap

  init(cap: ConnectionCap) {
    self.cap = cap
  }

  func handlerAdded(context: ChannelHandlerContext) {
    cap.opened(context.channel)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    cap.closed(context.channel)
  }

  func channelInactive(context: ChannelHandlerContext) {
    cap.closed(context.channel)
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head = unwrapInboundIn(data) { cap.requestStarted(context.channel) }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) { cap.requestEnded(context.channel) }
    context.write(data, promise: promise)
  }
}
