"""Spark's own floor for spark/bench.sh: the least any job doing this work pays on the same master
and log. It reads the lines, takes each one's session_id with a regular expression (no JSON
parse, no verb), shuffles once by session, sorts within partitions and writes Parquet: no
decoding, deduplication, derivation or judging. JVM start included, as in the job's figure.
usage: python3 spark/bench_floor.py LOG OUT [PARTITIONS]"""
import os
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

log, out = sys.argv[1:3]
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
spark = (SparkSession.builder.master("local[2]").appName("pullparity-bench-floor")
         .config("spark.driver.memory", "6g").getOrCreate())
partitions = int(sys.argv[3]) if len(sys.argv) > 3 else 2 * spark.sparkContext.defaultParallelism
lines = spark.read.option("lineSep", "\n").text(log)
session = F.regexp_extract("value", r'"session_id":"([^"]*)"', 1).alias("session_id")
(lines.select(session, "value").repartition(partitions, "session_id").sortWithinPartitions("session_id")
 .write.mode("overwrite").parquet(out))
spark.stop()
