#!/usr/bin/env python3
"""Lists the public top-level names of Courier's library modules that a module users import beside Courier also
declares, so that a file importing both would find the name ambiguous.

Reads the symbol graphs of a debug build (`swift build` first): Courier's products against swift-openapi-runtime,
swift-http-types, AsyncHTTPClient, Hummingbird, PostgresNIO, Foundation (Linux's, the closest this machine has to Apple's),
OpenCombine (which mirrors Combine's names) and Swift Testing; and against APPLE_NAMES, a reviewed list of the public
names of Combine, SwiftUI (which re-exports Combine), SwiftData and Observation that an app file imports beside
Courier — those frameworks do not exist here. Exits 1 when a clash is found, 0 when none, 2 on a setup error.

    Scripts/check-name-clashes.py [--build-path .build/debug] [--toolchain-bin /opt/swift/usr/bin]
"""
import argparse
import importlib.util
import json
import os
import shutil
import sys
import tempfile

OURS = ["Courier", "CourierStyles", "CourierTesting", "CourierAsyncHTTPClient", "CourierObservability",
        "CourierOpenAPI", "CourierCombine", "CourierSQLiteCache", "CourierOutbox", "CourierOutboxPostgres"]
THEIRS = ["OpenAPIRuntime", "HTTPTypes", "HTTPTypesFoundation", "AsyncHTTPClient", "Hummingbird", "HummingbirdCore",
          "PostgresNIO", "Foundation", "FoundationEssentials", "FoundationNetworking", "OpenCombine", "Testing"]
# Top-level public names of Apple frameworks that are not on this machine, read from their documentation's indexes;
# reviewed by hand, and extended when a framework adds a name a networking library might also choose.
APPLE_NAMES = {
    "Combine": """AnyCancellable AnyPublisher AnySubscriber Cancellable CombineIdentifier ConnectablePublisher
        CurrentValueSubject CustomCombineIdentifierConvertible Deferred Empty Fail Future ImmediateScheduler Just
        ObservableObject ObservableObjectPublisher PassthroughSubject Published Publisher Publishers Record Scheduler
        Subject Subscriber Subscribers Subscription TopLevelDecoder TopLevelEncoder""",
    "SwiftUI": """Alert Alignment Angle Animation Anchor App AppStorage AsyncImage Axis Binding Button Canvas Color
        Commands DismissAction Divider Edge Environment EnvironmentObject EnvironmentValues FetchRequest FocusState
        Font Form Gauge Gesture GeometryReader Group Image Label Layout Link List Material Menu Namespace
        ObservedObject OpenURLAction Path Picker ProgressView RefreshAction Scene SceneStorage ScrollView Section
        Settings Shape ShapeStyle Spacer State StateObject Stepper Table Text TimelineView Toggle Transaction View
        WindowGroup""",
    "SwiftData": """Attribute DataStore FetchDescriptor HistoryDescriptor Model ModelConfiguration ModelContainer
        ModelContext PersistentIdentifier PersistentModel Query Relationship Schema Transient""",
    "Observation": """Observable ObservationIgnored ObservationRegistrar ObservationTracked Observations
        withObservationTracking""",
}
TOP_LEVEL = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor",
             "swift.func", "swift.var", "swift.macro"}


def load_checker(root):
    spec = importlib.util.spec_from_file_location("check_availability", os.path.join(root, "Scripts",
                                                                                       "check-availability.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def top_level_names(checker, tool, module, build_dir, flags, work):
    out_dir = os.path.join(work, module)
    _, files, error = checker.extract_graph(tool, module, "x86_64-unknown-linux-gnu", out_dir,
                                            [os.path.join(build_dir, "Modules")], flags, "public",
                                            os.path.join(work, "module-cache"))
    if not files:
        raise RuntimeError(f"no symbol graph for {module}: {error.strip()[:400]}")
    names = set()
    for path in files:
        if "@" in os.path.basename(path):
            continue  # extensions of other modules' types declare no top-level name
        graph = json.load(open(path))
        for symbol in graph["symbols"]:
            if len(symbol["pathComponents"]) == 1 and symbol["kind"]["identifier"] in TOP_LEVEL:
                if not symbol["pathComponents"][0].startswith("_"):
                    names.add(symbol["pathComponents"][0])
    return names


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-path", default=os.path.join(root, ".build", "debug"))
    parser.add_argument("--toolchain-bin", default=os.path.dirname(os.path.realpath(shutil.which("swift") or "")))
    args = parser.parse_args()
    build_dir = os.path.realpath(args.build_path)
    tool = os.path.join(args.toolchain_bin, "swift-symbolgraph-extract")
    if not os.path.isdir(os.path.join(build_dir, "Modules")) or not os.path.exists(tool):
        print(f"error: no build at {build_dir} or no {tool}: run `swift build` first", file=sys.stderr)
        return 2
    checker = load_checker(root)
    flags = checker.clang_flags_from_build(build_dir)
    work = tempfile.mkdtemp(prefix="courier-names-")
    try:
        declared = {}
        for module in OURS + THEIRS:
            try:
                for name in top_level_names(checker, tool, module, build_dir, flags, work):
                    declared.setdefault(name, set()).add(module)
            except RuntimeError as error:
                print(f"error: {error}", file=sys.stderr)
                return 2
        clashes = []
        for name, modules in sorted(declared.items()):
            ours = sorted(modules & set(OURS))
            theirs = sorted(modules & set(THEIRS))
            if ours and theirs:
                clashes.append(f"{name}: declared by {', '.join(ours)} and by {', '.join(theirs)}")
        for framework, names in sorted(APPLE_NAMES.items()):
            for name in sorted(set(names.split())):
                ours = sorted(declared.get(name, set()) & set(OURS))
                if ours:
                    clashes.append(f"{name}: declared by {', '.join(ours)} and by {framework}")
        for line in clashes:
            print(line)
        print(f"{len(clashes)} public name clash(es) between {len(OURS)} Courier modules and {', '.join(THEIRS)}, "
              f"and {', '.join(sorted(APPLE_NAMES))} (a reviewed list of their names)")
        return 1 if clashes else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
