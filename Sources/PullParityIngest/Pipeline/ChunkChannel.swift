/// What ingest's reading thread hands the writer.
enum ChunkChannelItem {
  case chunk(IngestChunk)
  case failure(any Error)
  /// One input could not be read to its end; the run goes on with the others.
  case inputFailed(IngestError)
}

/// The hand-over of parsed chunks from ingest's reading thread to the writer.
typealias ChunkChannel = BoundedChannel<ChunkChannelItem>
