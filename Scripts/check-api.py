#!/usr/bin/env python3
"""Compares the public API of every Courier library with its committed baseline, `API/<Module>.txt`.

Reads the symbol graphs of a debug build (`swift build` first) and writes one line per public declaration (its
path, its kind and its declaration as the compiler prints it, with its availability) and one per conformance. Extensions of other modules'
types are included (as `Module@Other` files in the graph). Exits 1 when the build's API differs from the baseline
(printing the difference), 0 when it matches, 2 on a setup error.

    Scripts/check-api.py            compare (CI)
    Scripts/check-api.py --update   write the baseline from the build; commit it with a CHANGELOG entry

With `--require-changelog`, also fails when the last commit changed a baseline file without changing CHANGELOG.md:
a change to the public API is described in the commit that makes it.
"""
import argparse
import difflib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

LIBRARIES = ["Courier", "CourierAsyncHTTPClient", "CourierStyles", "CourierTesting", "CourierObservability",
             "CourierOpenAPI", "CourierCombine", "CourierSQLiteCache", "CourierOutbox",
             "CourierOutboxPostgres", "CourierDemoServer"]

# Conformances the compiler adds by itself, which come and go with the toolchain rather than with the API: every type is
# Copyable and Escapable unless it says otherwise, a Sendable type's metatype is SendableMetatype (Swift 6.2), and a
# trivial type is BitwiseCopyable. A baseline that listed them would change with a new Swift release.
IMPLIED_BY_THE_TOOLCHAIN = {"Swift.Copyable", "Swift.Escapable", "Swift.SendableMetatype", "Swift.BitwiseCopyable"}


def load_checker(root):
    spec = importlib.util.spec_from_file_location("check_availability", os.path.join(root, "Scripts",
                                                                                       "check-availability.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def availability(symbol):
    parts = []
    for item in symbol.get("availability", []):
        domain = item.get("domain", "*")
        words = [domain]
        for key in ("introduced", "deprecated", "obsoleted"):
            if key in item:
                version = item[key]
                words.append(f"{key} {version.get('major', 0)}.{version.get('minor', 0)}")
        if item.get("isUnconditionallyDeprecated"):
            words.append("deprecated")
        if item.get("isUnconditionallyUnavailable"):
            words.append("unavailable")
        parts.append(" ".join(words))
    return f"  @available({'; '.join(sorted(parts))})" if parts else ""


def api_lines(checker, tool, module, build_dir, flags, work):
    out_dir = os.path.join(work, module)
    _, files, error = checker.extract_graph(tool, module, "x86_64-unknown-linux-gnu", out_dir,
                                            [os.path.join(build_dir, "Modules")], flags, "public",
                                            os.path.join(work, "module-cache"))
    if not files:
        raise RuntimeError(f"no symbol graph for {module}: {error.strip()[:400]}")
    lines = set()
    for path in sorted(files):
        extended = os.path.basename(path).split(".symbols.json")[0].partition("@")[2]
        graph = json.load(open(path))
        for symbol in graph["symbols"]:
            declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
            declaration = " ".join(declaration.split())
            where = ".".join(symbol["pathComponents"])
            if extended:
                where = f"{extended}::{where}"
            kind = symbol["kind"]["identifier"].removeprefix("swift.")
            lines.add(f"{where} [{kind}] {declaration}{availability(symbol)}")
        paths = {symbol["identifier"]["precise"]: symbol["pathComponents"] for symbol in graph["symbols"]}
        for relation in graph.get("relationships", []):
            if relation["kind"] != "conformsTo" or relation["source"] not in paths:
                continue
            where = ".".join(paths[relation["source"]])
            if extended:
                where = f"{extended}::{where}"
            protocol = relation.get("targetFallback") or relation["target"]
            if relation["target"] in paths:
                protocol = ".".join(paths[relation["target"]])
            if protocol in IMPLIED_BY_THE_TOOLCHAIN:
                continue
            lines.add(f"{where} [conforms to] {protocol}")
    return sorted(lines)


def changelog_check(root):
    """Fails when HEAD changed API/ without changing CHANGELOG.md."""
    has_parent = subprocess.run(["git", "-C", root, "rev-parse", "--verify", "-q", "HEAD~1"],
                                stdout=subprocess.DEVNULL).returncode == 0
    if not has_parent:
        return True
    changed = subprocess.run(["git", "-C", root, "diff", "--name-only", "HEAD~1", "HEAD"],
                             stdout=subprocess.PIPE, text=True).stdout.split()
    if any(name.startswith("API/") for name in changed) and "CHANGELOG.md" not in changed:
        print("error: the last commit changed the public API baseline (API/) but not CHANGELOG.md", file=sys.stderr)
        return False
    return True


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-path", default=os.path.join(root, ".build", "debug"))
    parser.add_argument("--toolchain-bin", default=os.path.dirname(os.path.realpath(shutil.which("swift") or "")))
    parser.add_argument("--update", action="store_true", help="write the baseline from the build")
    parser.add_argument("--require-changelog", action="store_true",
                        help="fail when the last commit changed API/ but not CHANGELOG.md")
    args = parser.parse_args()
    build_dir = os.path.realpath(args.build_path)
    tool = os.path.join(args.toolchain_bin, "swift-symbolgraph-extract")
    if not os.path.isdir(os.path.join(build_dir, "Modules")) or not os.path.exists(tool):
        print(f"error: no build at {build_dir} or no {tool}: run `swift build` first", file=sys.stderr)
        return 2
    checker = load_checker(root)
    flags = checker.clang_flags_from_build(build_dir)
    baseline_dir = os.path.join(root, "API")
    work = tempfile.mkdtemp(prefix="courier-api-")
    differences = 0
    try:
        os.makedirs(baseline_dir, exist_ok=True)
        for module in LIBRARIES:
            try:
                lines = api_lines(checker, tool, module, build_dir, flags, work)
            except RuntimeError as error:
                print(f"error: {error}", file=sys.stderr)
                return 2
            path = os.path.join(baseline_dir, f"{module}.txt")
            text = "".join(line + "\n" for line in lines)
            if args.update:
                with open(path, "w", encoding="utf-8") as file:
                    file.write(text)
                print(f"{module}: {len(lines)} public declarations written to API/{module}.txt")
                continue
            baseline = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
            if baseline != text:
                differences += 1
                diff = difflib.unified_diff(baseline.splitlines(), lines, f"API/{module}.txt (baseline)",
                                            f"{module} (this build)", lineterm="", n=0)
                print("\n".join(diff))
            else:
                print(f"{module}: {len(lines)} public declarations, as in API/{module}.txt")
        if differences:
            print(f"error: the public API of {differences} module(s) differs from the baseline. If the change is "
                  "meant, run Scripts/check-api.py --update and describe it in CHANGELOG.md in the same commit.",
                  file=sys.stderr)
            return 1
        if args.require_changelog and not changelog_check(root):
            return 1
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
