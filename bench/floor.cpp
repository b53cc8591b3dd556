// The "floor" for `pullparity ingest`: the least a JSON-lines -> SQLite
// ingester has to do, written as directly as possible.
//
// For every line: parse it with simdjson (DOM, so the whole line is
// validated), pick the six required top-level fields, and store it. Lines
// that do not parse or miss a field are skipped. WAL, synchronous=NORMAL,
// large transactions. No sessions, no quarantine, no run record: anything
// pullparity does beyond this is its overhead.
//
// --layout rows (the default): one row (event_id, session_id, ts, platform,
// app, type, raw line) per line through ONE prepared statement, no index (or,
// with --pk, event_id TEXT PRIMARY KEY + INSERT OR IGNORE: the "dedup
// floor"). `ts` is stored as REAL when it is a number and as the string as-is
// otherwise (no RFC 3339 parsing).
//
// --layout blocks: no row per line. Lines are packed into 64 KiB blocks, one
// BLOB row each, compressed with zstd at LEVEL when --zstd LEVEL is given.
// This is the least any design that keeps the raw log inside SQLite writes.
//
// --keys rows: besides, one (key, location) row per line in a WITHOUT ROWID
// table, keyed as pullparity keys events (a UUIDv7's milliseconds then 16
// bits of the id's FNV-1a hash; any other id: its 64-bit FNV-1a hash), INSERT
// OR IGNORE: the least a duplicate check with an SQLite row per event writes.
// --keys blocks (with --layout blocks): no row per key either; each block row
// carries its lines' keys, sorted, as a BLOB, and their lowest and highest
// (where a later run's duplicate check would look). Neither variant checks
// anything: they measure what keeping the keys costs.
// --threads 2 (with --layout blocks): the blocks are compressed and written on a
// second thread while the first one parses, as a two-core ingester would.
//
// Build: g++ -O2 -std=c++17 bench/floor.cpp -lsimdjson -lsqlite3 -lzstd -pthread -o floor
// Usage: floor [--pk] [--layout rows|blocks] [--zstd LEVEL] [--keys rows|blocks]
//              [--threads 1|2] [--batch N] [--cache-mb N] DB FILE   (FILE may be -)
// Prints: floor: N events in S s = R events/s

#include <simdjson.h>
#include <sqlite3.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace {

[[noreturn]] void die(const char *what, sqlite3 *db = nullptr) {
  std::fprintf(stderr, "floor: %s%s%s\n", what, db ? ": " : "", db ? sqlite3_errmsg(db) : "");
  std::exit(2);
}

void exec(sqlite3 *db, const char *sql) {
  char *err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::fprintf(stderr, "floor: %s: %s\n", sql, err ? err : "?");
    std::exit(2);
  }
}

sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
  sqlite3_stmt *stmt = nullptr;
  if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK) die("prepare", db);
  return stmt;
}

void step(sqlite3 *db, sqlite3_stmt *stmt) {
  if (sqlite3_step(stmt) != SQLITE_DONE) die("insert", db);
  sqlite3_reset(stmt);
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: floor [--pk] [--layout rows|blocks] [--zstd LEVEL] [--keys rows|blocks] [--threads 1|2] [--batch N]"
               " [--cache-mb N]"
               " DB FILE\n");
  std::exit(64);
}

// pullparity's EventKey, so that the key table sees the same key order as the events index.
int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int64_t eventKey(std::string_view id) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : id) hash = (hash ^ c) * 0x100000001b3ULL;
  bool v7 = id.size() == 36 && id[8] == '-' && id[13] == '-' && id[18] == '-' && id[23] == '-' && id[14] == '7';
  uint64_t millis = 0;
  for (int i = 0; v7 && i < 13; i++) {
    if (i == 8) continue;
    int d = hexDigit(id[size_t(i)]);
    if (d < 0) v7 = false;
    millis = millis << 4 | uint64_t(d < 0 ? 0 : d);
  }
  return int64_t(v7 ? (millis << 16 | (hash & 0xffff)) : hash);
}

struct Options {
  bool pk = false;
  bool blocks = false;
  bool keyRows = false;
  bool blockKeys = false;
  int zstdLevel = 0;  // 0: blocks are stored uncompressed
  int threads = 1;    // 2: blocks are compressed and written on a second thread
  long batch = 100000;
  long cacheMb = 0;  // 0: SQLite's default page cache
  std::string dbPath;
  const char *inPath = nullptr;
};

// The value of --layout and --keys: true for "blocks".
bool rowsOrBlocks(std::string_view value) {
  if (value != "rows" && value != "blocks") usage();
  return value == "blocks";
}

Options parseOptions(int argc, char **argv) {
  Options o;
  std::vector<const char *> pos;
  for (int i = 1; i < argc; i++) {
    std::string_view a = argv[i];
    bool hasValue = i + 1 < argc;
    if (a == "--pk") o.pk = true;
    else if (a == "--layout" && hasValue) o.blocks = rowsOrBlocks(argv[++i]);
    else if (a == "--keys" && hasValue) (rowsOrBlocks(argv[++i]) ? o.blockKeys : o.keyRows) = true;
    else if (a == "--zstd" && hasValue) o.zstdLevel = std::atoi(argv[++i]);
    else if (a == "--threads" && hasValue) o.threads = std::atoi(argv[++i]);
    else if (a == "--batch" && hasValue) o.batch = std::atol(argv[++i]);
    else if (a == "--cache-mb" && hasValue) o.cacheMb = std::atol(argv[++i]);
    else if (a.size() > 1 && a[0] == '-' && a[1] == '-') usage();
    else pos.push_back(argv[i]);
  }
  bool blocksOnly = o.zstdLevel != 0 || o.blockKeys || o.threads == 2;
  if (pos.size() != 2 || o.batch < 1 || (o.pk && o.blocks) || (blocksOnly && !o.blocks) ||
      (o.threads != 1 && o.threads != 2))
    usage();
  o.dbPath = pos[0];
  o.inPath = pos[1];
  return o;
}

// A block of raw lines on its way to the database, with their keys.
struct Block {
  long long id = 0;
  long long lineCount = 0;
  std::string lines;          // '\n'-terminated
  std::vector<int64_t> keys;  // with --keys
};

// Blocks handed from the parsing thread to the writing one (--threads 2); bounded, so the
// parser cannot run ahead of the writer by more than a few blocks.
class BlockQueue {
 public:
  void push(Block &&block) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return blocks.size() < capacity; });
    blocks.push_back(std::move(block));
    changed.notify_all();
  }
  void finish() {
    std::lock_guard<std::mutex> lock(mutex);
    finished = true;
    changed.notify_all();
  }
  // False once finished and empty.
  bool pop(Block &block) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return !blocks.empty() || finished; });
    if (blocks.empty()) return false;
    block = std::move(blocks.front());
    blocks.pop_front();
    changed.notify_all();
    return true;
  }

 private:
  static constexpr size_t capacity = 16;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Block> blocks;
  bool finished = false;
};

// Where the lines go: rows, or blocks; plus the keys with --keys.
struct Store {
  static constexpr size_t blockBytes = 64 * 1024;
  const Options &o;
  sqlite3 *db = nullptr;
  sqlite3_stmt *row = nullptr, *block = nullptr, *key = nullptr;
  Block filling;              // the block the parser is adding lines to
  std::vector<char> packed;   // the compressed form of the block being written
  long long blocks = 0, inTx = 0, rowId = 0, storedBytes = 0;
  BlockQueue queue;
  std::thread writer;

  explicit Store(const Options &options) : o(options) {
    for (const char *suffix : {"", "-wal", "-shm", "-journal"}) std::remove((o.dbPath + suffix).c_str());
    if (sqlite3_open(o.dbPath.c_str(), &db) != SQLITE_OK) die("open", db);
    exec(db, "PRAGMA journal_mode=WAL");
    exec(db, "PRAGMA synchronous=NORMAL");
    if (o.cacheMb > 0) exec(db, ("PRAGMA cache_size=-" + std::to_string(o.cacheMb * 1024)).c_str());
    if (o.blocks) {
      exec(db, "CREATE TABLE blocks(block_id INTEGER PRIMARY KEY, line_count INTEGER, bytes BLOB,"
               " lowest_key INTEGER, highest_key INTEGER, keys BLOB)");
      block = prepare(db, "INSERT INTO blocks VALUES(?1,?2,?3,?4,?5,?6)");
    } else {
      exec(db, o.pk ? "CREATE TABLE events(event_id TEXT PRIMARY KEY, session_id TEXT, ts_ms, platform TEXT,"
                      " app TEXT, type TEXT, raw TEXT)"
                    : "CREATE TABLE events(event_id TEXT, session_id TEXT, ts_ms, platform TEXT,"
                      " app TEXT, type TEXT, raw TEXT)");
      row = prepare(db, o.pk ? "INSERT OR IGNORE INTO events VALUES(?1,?2,?3,?4,?5,?6,?7)"
                             : "INSERT INTO events VALUES(?1,?2,?3,?4,?5,?6,?7)");
    }
    if (o.keyRows) {
      exec(db, "CREATE TABLE keys(key INTEGER PRIMARY KEY, location INTEGER) WITHOUT ROWID");
      key = prepare(db, "INSERT OR IGNORE INTO keys VALUES(?1,?2)");
    }
    exec(db, "BEGIN");
    if (o.threads == 2) writer = std::thread([this] {
      Block next;
      while (queue.pop(next)) write(next);
    });
  }

  void countLines(long long lines) {
    inTx += lines;
    if (inTx < o.batch) return;
    exec(db, "COMMIT");
    exec(db, "BEGIN");
    inTx = 0;
  }

  void addKeyRow(int64_t eventKey, long long location) {
    sqlite3_bind_int64(key, 1, eventKey);
    sqlite3_bind_int64(key, 2, location);
    step(db, key);
  }

  // The string_views point into the parser's buffer, which lives until the next parse:
  // SQLITE_STATIC is safe because the row is stepped now.
  void addRow(const std::string_view f[5], simdjson::dom::element ts, std::string_view raw) {
    if (o.keyRows) addKeyRow(eventKey(f[0]), rowId + 1);
    sqlite3_bind_text(row, 1, f[0].data(), int(f[0].size()), SQLITE_STATIC);
    sqlite3_bind_text(row, 2, f[1].data(), int(f[1].size()), SQLITE_STATIC);
    double d;
    std::string_view s;
    if (!ts.get_double().get(d)) sqlite3_bind_double(row, 3, d);
    else if (!ts.get_string().get(s)) sqlite3_bind_text(row, 3, s.data(), int(s.size()), SQLITE_STATIC);
    else sqlite3_bind_null(row, 3);
    for (int i = 2; i < 5; i++) sqlite3_bind_text(row, i + 2, f[i].data(), int(f[i].size()), SQLITE_STATIC);
    sqlite3_bind_text(row, 7, raw.data(), int(raw.size()), SQLITE_STATIC);
    step(db, row);
    ++rowId;
    countLines(1);
  }

  void addToBlock(std::string_view eventID, std::string_view raw) {
    filling.lines.append(raw);
    filling.lines.push_back('\n');
    if (o.keyRows || o.blockKeys) filling.keys.push_back(eventKey(eventID));
    if (++filling.lineCount == 1) filling.id = ++blocks;
    if (filling.lines.size() >= blockBytes) ship();
  }

  void ship() {
    if (filling.lineCount == 0) return;
    if (o.threads == 2) queue.push(std::move(filling));
    else write(filling);
    filling = Block();
  }

  // Compresses and stores a block: on the writing thread with --threads 2.
  void write(Block &b) {
    const void *bytes = b.lines.data();
    size_t size = b.lines.size();
    if (o.zstdLevel > 0) {
      packed.resize(ZSTD_compressBound(b.lines.size()));
      size = ZSTD_compress(packed.data(), packed.size(), b.lines.data(), b.lines.size(), o.zstdLevel);
      if (ZSTD_isError(size)) die("zstd");
      bytes = packed.data();
    }
    // A line in a block is found by (block, index in block).
    for (size_t i = 0; o.keyRows && i < b.keys.size(); i++) addKeyRow(b.keys[i], b.id << 16 | (long long)i);
    sqlite3_bind_int64(block, 1, b.id);
    sqlite3_bind_int64(block, 2, b.lineCount);
    sqlite3_bind_blob(block, 3, bytes, int(size), SQLITE_STATIC);
    if (o.blockKeys) {
      std::sort(b.keys.begin(), b.keys.end());
      sqlite3_bind_int64(block, 4, b.keys.front());
      sqlite3_bind_int64(block, 5, b.keys.back());
      sqlite3_bind_blob(block, 6, b.keys.data(), int(b.keys.size() * sizeof(int64_t)), SQLITE_STATIC);
    }
    step(db, block);
    storedBytes += (long long)size;
    countLines(b.lineCount);
  }

  void add(const std::string_view f[5], simdjson::dom::element ts, std::string_view raw) {
    if (o.blocks) addToBlock(f[0], raw);
    else addRow(f, ts, raw);
  }

  void close() {
    if (o.blocks) ship();
    if (writer.joinable()) {
      queue.finish();
      writer.join();
    }
    exec(db, "COMMIT");
    for (sqlite3_stmt *stmt : {row, block, key}) sqlite3_finalize(stmt);
    if (sqlite3_close(db) != SQLITE_OK) die("close", db);
  }
};

}  // namespace

int main(int argc, char **argv) {
  const Options o = parseOptions(argc, argv);
  auto t0 = std::chrono::steady_clock::now();
  Store store(o);

  int fd = (std::strcmp(o.inPath, "-") == 0) ? 0 : open(o.inPath, O_RDONLY);
  if (fd < 0) die("cannot open input");
#ifdef POSIX_FADV_SEQUENTIAL
  posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif

  simdjson::dom::parser parser;
  // Streaming buffer: [start, end) holds unconsumed bytes; the allocation
  // always keeps SIMDJSON_PADDING readable bytes after `end`, so each line
  // can be parsed in place (simdjson only needs the padding to be readable).
  size_t cap = size_t(4) << 20;
  std::vector<char> buf(cap + simdjson::SIMDJSON_PADDING);
  size_t start = 0, end = 0;
  bool eof = false;
  long long lines = 0, stored = 0, skipped = 0;

  auto insertLine = [&](const char *p, size_t n) {
    lines++;
    if (n && p[n - 1] == '\r') n--;
    if (n == 0) return;  // blank line
    simdjson::dom::element doc;
    if (parser.parse(p, n, false).get(doc)) { skipped++; return; }
    simdjson::dom::object obj;
    if (doc.get_object().get(obj)) { skipped++; return; }
    std::string_view f[5];  // event_id session_id platform app type
    bool have[5] = {false, false, false, false, false};
    simdjson::dom::element ts;
    bool haveTs = false;
    for (auto field : obj) {
      std::string_view k = field.key;
      int idx = -1;
      if (k == "event_id") idx = 0;
      else if (k == "session_id") idx = 1;
      else if (k == "platform") idx = 2;
      else if (k == "app") idx = 3;
      else if (k == "type") idx = 4;
      else if (k == "ts") { if (!haveTs) { ts = field.value; haveTs = true; } continue; }
      else continue;
      if (have[idx]) continue;
      if (field.value.get_string().get(f[idx])) { skipped++; return; }
      have[idx] = true;
    }
    if (!haveTs || !have[0] || !have[1] || !have[2] || !have[3] || !have[4]) { skipped++; return; }
    if (!ts.is_number() && !ts.is_string()) { skipped++; return; }
    store.add(f, ts, std::string_view(p, n));
    stored++;
  };

  for (;;) {
    // Consume every complete line in the buffer.
    while (start < end) {
      const char *p = buf.data() + start;
      const char *nl = static_cast<const char *>(std::memchr(p, '\n', end - start));
      if (!nl) break;
      insertLine(p, size_t(nl - p));
      start = size_t(nl - buf.data()) + 1;
    }
    if (eof) {
      if (start < end) insertLine(buf.data() + start, end - start);  // last line without '\n'
      break;
    }
    // Keep the partial line, grow if one line fills the buffer, refill.
    if (start > 0) {
      std::memmove(buf.data(), buf.data() + start, end - start);
      end -= start;
      start = 0;
    }
    if (end == cap) {
      cap *= 2;
      buf.resize(cap + simdjson::SIMDJSON_PADDING);
    }
    ssize_t r = read(fd, buf.data() + end, cap - end);
    if (r < 0) die("read");
    if (r == 0) eof = true;
    end += size_t(r);
  }
  if (fd != 0) close(fd);
  store.close();

  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "floor: %lld lines, %lld stored, %lld skipped", lines, stored, skipped);
  if (o.blocks) std::fprintf(stderr, ", %lld blocks of %lld bytes in all", store.blocks, store.storedBytes);
  std::fprintf(stderr, "\n");
  std::printf("floor: %lld events in %.3f s = %.0f events/s\n", stored, secs, secs > 0 ? stored / secs : 0.0);
  return 0;
}
