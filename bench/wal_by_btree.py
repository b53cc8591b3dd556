#!/usr/bin/env python3
"""What a command writes to a database's write-ahead log, table by table and index by index.

    python3 bench/wal_by_btree.py DB -- COMMAND [ARG...]

Holds a read transaction on DB while COMMAND runs (for example `pullparity ingest --db DB
day.jsonl`), so that no checkpoint can copy frames back and the WAL keeps every page the
command wrote, then counts the WAL's frames by the table or index that owns each page
(SQLite's dbstat, after the command). A page written by three transactions is three frames:
the "frames" column is what the commits wrote, "pages" how many distinct pages that was.

Written for issue #13, to find which indexes made a day's commit grow with the history.
"""
import collections
import os
import shutil
import sqlite3
import struct
import subprocess
import sys


def frames_by_page(wal_path, page_size):
    """(page number, is a commit frame) for every frame of the WAL, in order."""
    with open(wal_path, "rb") as wal:
        wal.read(32)  # the WAL header
        while True:
            header = wal.read(24)
            if len(header) < 24:
                return
            page, size_after_commit = struct.unpack(">II", header[:8])
            wal.seek(page_size, 1)
            yield page, size_after_commit != 0


def main(argv):
    if len(argv) < 4 or argv[2] != "--":
        sys.exit(__doc__)
    db, command = argv[1], argv[3:]
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN")
    holder.execute("SELECT count(*) FROM sqlite_schema").fetchall()  # the snapshot starts here
    status = subprocess.call(command)
    copy_path = db + ".wal-copy"
    shutil.copyfile(db + "-wal", copy_path)
    holder.execute("COMMIT")
    if status != 0:
        os.remove(copy_path)
        sys.exit(f"wal_by_btree: the command failed ({status})")
    page_size = holder.execute("PRAGMA page_size").fetchone()[0]
    owner = dict(holder.execute("SELECT pageno, name FROM dbstat"))
    frames, pages, commits = collections.Counter(), collections.defaultdict(set), 0
    for page, is_commit in frames_by_page(copy_path, page_size):
        name = owner.get(page, "(freed)")
        frames[name] += 1
        pages[name].add(page)
        commits += is_commit
    total = sum(frames.values())
    print(f"{commits} commits, {total} frames, {total * page_size / 1e6:.1f} MB of WAL")
    print(f"{'table or index':<32} {'frames':>8} {'pages':>8} {'MB':>8}")
    for name, count in frames.most_common():
        print(f"{name:<32} {count:>8} {len(pages[name]):>8} {count * page_size / 1e6:>8.1f}")
    holder.close()
    os.remove(copy_path)


if __name__ == "__main__":
    main(sys.argv)
