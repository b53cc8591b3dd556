// The "floor" for `pullparity ingest`: the least a JSON-lines -> SQLite
// ingester has to do, written as directly as possible.
//
// For every line: parse it with simdjson (DOM, so the whole line is
// validated), pick the six required top-level fields, and insert one row
// (event_id, session_id, ts, platform, app, type, raw line) through ONE
// prepared statement. WAL, synchronous=NORMAL, large transactions, no index
// (or, with --pk, event_id TEXT PRIMARY KEY + INSERT OR IGNORE: the "dedup
// floor"). Lines that do not parse or miss a field are skipped. `ts` is
// stored as REAL when it is a number and as the string as-is otherwise (no
// RFC 3339 parsing). No sessions, no quarantine, no run record: anything
// pullparity does beyond this is its overhead.
//
// Build: g++ -O2 -std=c++17 bench/floor.cpp -lsimdjson -lsqlite3 -o floor
// Usage: floor [--pk] [--batch N] [--cache-mb N] DB FILE   (FILE may be -)
// Prints: floor: N events in S s = R events/s

#include <simdjson.h>
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
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

void usage() {
  std::fprintf(stderr, "usage: floor [--pk] [--batch N] [--cache-mb N] DB FILE\n");
  std::exit(64);
}

}  // namespace

int main(int argc, char **argv) {
  bool pk = false;
  long batch = 100000;
  long cacheMb = 0;  // 0: SQLite's default page cache
  std::vector<const char *> pos;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--pk")) {
      pk = true;
    } else if (!std::strcmp(argv[i], "--batch") && i + 1 < argc) {
      batch = std::atol(argv[++i]);
      if (batch < 1) usage();
    } else if (!std::strcmp(argv[i], "--cache-mb") && i + 1 < argc) {
      cacheMb = std::atol(argv[++i]);
    } else if (argv[i][0] == '-' && argv[i][1] == '-') {
      usage();
    } else {
      pos.push_back(argv[i]);
    }
  }
  if (pos.size() != 2) usage();
  const std::string dbPath = pos[0];
  const char *inPath = pos[1];

  auto t0 = std::chrono::steady_clock::now();

  // Fresh database.
  for (const char *suffix : {"", "-wal", "-shm", "-journal"}) std::remove((dbPath + suffix).c_str());
  sqlite3 *db = nullptr;
  if (sqlite3_open(dbPath.c_str(), &db) != SQLITE_OK) die("open", db);
  exec(db, "PRAGMA journal_mode=WAL");
  exec(db, "PRAGMA synchronous=NORMAL");
  if (cacheMb > 0) exec(db, ("PRAGMA cache_size=-" + std::to_string(cacheMb * 1024)).c_str());
  exec(db, pk ? "CREATE TABLE events(event_id TEXT PRIMARY KEY, session_id TEXT, ts_ms, platform TEXT,"
                " app TEXT, type TEXT, raw TEXT)"
              : "CREATE TABLE events(event_id TEXT, session_id TEXT, ts_ms, platform TEXT,"
                " app TEXT, type TEXT, raw TEXT)");
  sqlite3_stmt *ins = nullptr;
  const char *sql = pk ? "INSERT OR IGNORE INTO events VALUES(?1,?2,?3,?4,?5,?6,?7)"
                       : "INSERT INTO events VALUES(?1,?2,?3,?4,?5,?6,?7)";
  if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &ins, nullptr) != SQLITE_OK) die("prepare", db);

  int fd = (std::strcmp(inPath, "-") == 0) ? 0 : open(inPath, O_RDONLY);
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

  long long lines = 0, stored = 0, skipped = 0, inTx = 0;
  exec(db, "BEGIN");

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
    // The string_views point into the parser's buffer, which lives until the
    // next parse: SQLITE_STATIC is safe because the row is stepped now.
    sqlite3_bind_text(ins, 1, f[0].data(), int(f[0].size()), SQLITE_STATIC);
    sqlite3_bind_text(ins, 2, f[1].data(), int(f[1].size()), SQLITE_STATIC);
    double d;
    std::string_view s;
    if (!ts.get_double().get(d)) {
      sqlite3_bind_double(ins, 3, d);
    } else if (!ts.get_string().get(s)) {
      sqlite3_bind_text(ins, 3, s.data(), int(s.size()), SQLITE_STATIC);
    } else {
      skipped++;
      return;
    }
    sqlite3_bind_text(ins, 4, f[2].data(), int(f[2].size()), SQLITE_STATIC);
    sqlite3_bind_text(ins, 5, f[3].data(), int(f[3].size()), SQLITE_STATIC);
    sqlite3_bind_text(ins, 6, f[4].data(), int(f[4].size()), SQLITE_STATIC);
    sqlite3_bind_text(ins, 7, p, int(n), SQLITE_STATIC);
    if (sqlite3_step(ins) != SQLITE_DONE) die("insert", db);
    sqlite3_reset(ins);
    stored++;
    if (++inTx >= batch) {
      exec(db, "COMMIT");
      exec(db, "BEGIN");
      inTx = 0;
    }
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

  exec(db, "COMMIT");
  sqlite3_finalize(ins);
  if (sqlite3_close(db) != SQLITE_OK) die("close", db);

  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "floor%s: %lld lines, %lld stored, %lld skipped\n", pk ? " --pk" : "", lines, stored, skipped);
  std::printf("floor: %lld events in %.3f s = %.0f events/s\n", stored, secs, secs > 0 ? stored / secs : 0.0);
  return 0;
}
