// swift-tools-version:6.1
import Foundation
import PackageDescription

let package = Package(
  name: "PullParity",
  // Apple minimums are those of the products client apps link: Core uses the standard library
  // only, and the Recorder's `hold` and clock need `Clock`/`Duration` (iOS 16, macOS 13); nothing
  // else in them is newer. The `pullparity` command and the targets behind it are built and
  // tested on Linux only (Glibc signals, `Synchronization.Atomic`, simdjson and zlib from apt).
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .executable(name: "pullparity", targets: ["pullparity"]),
    // The HTTP collector, which `pullparity collect` runs: a product of its own, so that the quick
    // start (`swift run pullparity …`) never compiles Hummingbird, NIO and the rest of the HTTP stack.
    .executable(name: "pullparity-collect", targets: ["pullparity-collect"]),
    .library(name: "PullParityCore", targets: ["PullParityCore"]),
    .library(name: "PullParityRecorder", targets: ["PullParityRecorder"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
  ],
  targets: [
    // Pure: events, profiles, the state machine and metric derivation. No I/O, no Foundation,
    // so a client app can embed the very code the pipeline judges it with.
    .target(name: "PullParityCore"),

    // What an iOS (or any Swift) app links to emit the event log: Core and Foundation only.
    .target(name: "PullParityRecorder", dependencies: ["PullParityCore"]),

    // The versioned SQL files live in the top-level schema/ folder and are compiled into the
    // binary, so an installed `pullparity` never looks for them on disk.
    .target(
      name: "PullParitySchema",
      path: "schema",
      // Not for the binary: the event format as JSON Schema (for other platforms' emitters) and
      // the PostgreSQL port (for spark/load_postgres.py).
      exclude: ["events.schema.json", "postgres"],
      resources: [
        .embedInCode("0001_events_and_sessions.sql"),
        .embedInCode("0002_dashboard_views.sql"),
        .embedInCode("0003_profiles.sql"),
        .embedInCode("0004_exact_run_ledger.sql"),
        .embedInCode("0005_time_ordered_event_keys.sql"),
        .embedInCode("0006_session_digests.sql"),
        .embedInCode("0007_key_epochs.sql"),
        .embedInCode("0008_session_keys.sql"),
        .embedInCode("0009_field_failures.sql"),
        .embedInCode("0010_dashboard_percentages.sql"),
        .embedInCode("0011_compressed_raw_events.sql"),
        .embedInCode("0012_events_left_in_runs.sql"),
        .embedInCode("0013_screen_left.sql"),
        .embedInCode("0014_block_checksums.sql"),
        .embedInCode("0015_digest_appends.sql"),
        .embedInCode("0016_dashboard_verdicts.sql"),
        .embedInCode("0017_dataset_runs.sql"),
        .embedInCode("README.md"),
      ]
    ),

    .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
    // XXH3 fingerprints each chunk of input lines at memory speed (Debian's libxxhash-dev).
    .systemLibrary(name: "CXXHash", providers: [.apt(["libxxhash-dev"])]),
    // Raw event lines are kept in zstd-compressed blocks (Debian's libzstd-dev): measured on the
    // 1M-event benchmark log in 64 KiB blocks, level 1 took 29.8 B a line in 0.4 s of CPU, zlib
    // level 6 33.3 B in 2.1 s.
    .systemLibrary(name: "CZstd", providers: [.apt(["libzstd-dev"])]),

    .target(
      name: "CSimdjson",
      cxxSettings: [.unsafeFlags(["-O3"])],
      linkerSettings: [.linkedLibrary("simdjson")]
    ),

    .target(
      name: "PullParityStore",
      dependencies: [
        "PullParityCore", "PullParitySchema", "CZstd", "CXXHash",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .target(
      name: "PullParityIngest",
      dependencies: ["PullParityCore", "PullParityStore", "PullParityReport", "CZlib", "CSimdjson", "CXXHash"]
    ),
    // The verbs a cluster job pipes lines through (`decode`, `derive`) and `load`, which puts a
    // distributed run's output into a database: a product of their own, on top of Ingest.
    .target(
      name: "PullParityDistributed",
      dependencies: ["PullParityCore", "PullParityStore", "PullParityIngest", "PullParityReport"]
    ),
    .target(
      name: "PullParityReport",
      dependencies: ["PullParityCore", "PullParityStore"]
    ),
    // The HTTP collector behind `pullparity collect`: durable spool, rotation, scheduled ingest.
    .target(
      name: "PullParityCollect",
      dependencies: [
        "PullParityIngest", "PullParityStore", "PullParityReport",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ]
    ),
    .executableTarget(
      name: "pullparity",
      dependencies: [
        "PullParityCore", "PullParityIngest", "PullParityDistributed", "PullParityStore", "PullParityReport",
        "PullParitySchema", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "pullparity-collect",
      dependencies: [
        "PullParityCollect", "PullParityCore", "PullParityIngest", "PullParityStore", "PullParityReport",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    .target(
      name: "PullParityTestSupport",
      dependencies: [
        "PullParityCore", "PullParityIngest", "PullParityStore", "PullParitySchema",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      path: "Tests/PullParityTestSupport"
    ),
    .testTarget(name: "PullParityCoreTests", dependencies: ["PullParityCore", "PullParityTestSupport"]),
    .testTarget(
      name: "PullParityIngestTests",
      dependencies: [
        "PullParityIngest", "PullParityDistributed", "PullParityReport", "PullParityStore", "PullParityTestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .testTarget(
      name: "PullParityStoreTests",
      dependencies: [
        "PullParityStore", "PullParitySchema", "PullParityTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .testTarget(
      name: "PullParityReportTests",
      dependencies: [
        "PullParityReport", "PullParityStore", "PullParityIngest", "PullParitySchema", "PullParityTestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .testTarget(
      name: "PullParityRecorderTests",
      dependencies: ["PullParityRecorder", "PullParityIngest", "PullParityStore", "PullParityTestSupport"]
    ),
    .testTarget(
      name: "PullParityCollectTests",
      dependencies: [
        "PullParityCollect", "PullParityIngest", "PullParityRecorder", "PullParityStore", "PullParityTestSupport",
      ]
    ),
    .testTarget(
      name: "pullparityTests",
      dependencies: [
        "PullParityTestSupport", "PullParityCore", "PullParityStore", "PullParityDistributed",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
  ]
)

// CI builds with PULLPARITY_WARNINGS_AS_ERRORS=1: a warning in the project's own targets fails
// the build there, while a newer toolchain's new warnings never break a user's build.
let warningsAsErrors = ProcessInfo.processInfo.environment["PULLPARITY_WARNINGS_AS_ERRORS"] == "1"

// Package-wide settings, applied once to every Swift target, as swift-log does: `any` on every
// existential; an import is internal unless it says otherwise (`package import`, `public import`),
// so a module's surface names what it exposes of its dependencies; and a member is visible only
// in files that import its module.
for target in package.targets where target.type != .system {
  guard target.name != "CSimdjson" else { continue }
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  if warningsAsErrors { settings.append(.unsafeFlags(["-warnings-as-errors"])) }
  target.swiftSettings = settings
}
