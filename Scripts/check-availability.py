#!/usr/bin/env python3
"""Checks that the package's sources use only APIs that exist on the Apple platforms Package.swift declares.

Linux builds never check Apple availability, so an API that needs e.g. macOS 13 compiles here under a macOS 12 floor.
This tool finds such uses without an Apple SDK:

  * what the code references comes from the compiler's index store that a debug `swift build` writes
    (.build/<triple>/debug/index/store), read with the toolchain's libIndexStore through ctypes: every occurrence that
    is a reference (not a declaration or definition) in a unit whose main file is under Sources/ or Tests/;
  * what each referenced declaration needs comes from symbol graphs (swift-symbolgraph-extract) of Swift,
    _Concurrency, Synchronization, Distributed, _StringProcessing, RegexBuilder, Observation and of every module in
    the build's Modules folder that the package's units import, plus the package's own modules (so a use of our own
    `@available(macOS 14, …)` declaration is checked too). Implicit references (e.g. a `for await` loop's
    next(isolation:)) are skipped, and so is a use for which an overload with the same name and labels in the same
    type is available there (the type checker picks that one on Apple platforms, e.g. Double(_: Substring) → the
    generic StringProtocol one); likewise _StringProcessing's contains(_:) where Foundation is imported.
    A symbol graph's `identifier.precise` is the USR the index gives. A member without availability of its own takes
    its enclosing type's (memberOf, recursively); an availability macro such as Hummingbird's
    `@available(hummingbird 2.0, *)` is already expanded in the module, so it shows as macOS 14 / iOS 17 / tvOS 17;
  * what the index cannot see (swift-corelibs-foundation, Dispatch and FoundationNetworking carry no Apple
    availability, and FoundationEssentials' is swift-foundation's, not Apple's — see --foundation-graphs; Security, Network, os and `#if canImport(Darwin)` code are not compiled on Linux at all) comes from
    the reviewed patterns in Scripts/availability/foundation.txt, matched against the source text.

A use passes when every platform the package declares is covered by the floor or by the code around it. The scanner
strips comments and string literals (incl. multi-line and raw strings, interpolations included), matches braces and
understands:
  * `@available(macOS 13, iOS 16, *)`, `@available(macOS, introduced: 13)`, `@available(watchOS, unavailable)`,
    `@available(*, unavailable)` on any enclosing declaration (the declaration's signature and body; a declaration
    without a body ends at the end of its line), availability macros defined in Package.swift (AvailabilityMacro=…);
  * `if #available(…) { … }`, `while #available(…) { … }`, `if #unavailable(…) { … } else { … }` (the else block),
    and `guard #available(…) else { … }` (the rest of the enclosing block);
  * `#if`/`#elseif`/`#else` branches that cannot be compiled on a platform: os(Linux|Windows|Android|WASI|FreeBSD|
    OpenBSD|Cygwin|Haiku), canImport(Glibc|Musl|Bionic|Android|WASILibc|WinSDK|ucrt|FoundationNetworking) are false on
    every Apple platform, canImport(Darwin|ObjectiveC|Security|Network|os|Combine|…) and os(macOS|iOS|tvOS|watchOS|
    visionOS) are evaluated per platform; anything else (compiler(), arch(), DEBUG, …) counts as possibly true.
It does not handle: `obsoleted:`, conformance availability that the index does not report as a reference,
`#if` branches that open or close a brace differently, regex literals containing braces or quotes, and `#available`
written inside a closure in a condition. APIs of Foundation/Dispatch/Security/… that foundation.txt does not list are
not checked.

Exit status: 0 no problem, 1 problems, 2 usage or setup error.
"""

import argparse
import concurrent.futures
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

PLATFORMS = ("iOS", "macOS", "tvOS", "watchOS", "visionOS", "macCatalyst")
PLATFORM_ALIASES = {"macos": "macOS", "osx": "macOS", "ios": "iOS", "tvos": "tvOS", "watchos": "watchOS",
                    "visionos": "visionOS", "maccatalyst": "macCatalyst"}
# Toolchain modules whose interfaces carry Apple availability (Foundation, Dispatch, XCTest, Glibc do not).
TOOLCHAIN_MODULES = ["Swift", "_Concurrency", "Synchronization", "Distributed", "_StringProcessing", "RegexBuilder",
                     "Observation"]
# swift-foundation's modules carry Apple availability too, but for the Swift-native reimplementation: e.g.
# String.data(using:) says macOS 15 there while Apple's Foundation has had it forever. Only with --foundation-graphs.
FOUNDATION_MODULES = ["FoundationEssentials", "FoundationInternationalization"]
TOOLCHAIN_SKIP = {"Foundation", "FoundationNetworking", "FoundationXML", "Dispatch", "Glibc", "Musl", "XCTest",
                  "Testing", "SwiftOnoneSupport", "_Testing_Foundation", "_TestingInterop", "_TestDiscovery", "Cxx",
                  "CxxStdlib", "_FoundationCollections", "_RegexParser", "_Builtin_float", "_Differentiation",
                  "Runtime", "_Volatile"}

ROLE_DECLARATION, ROLE_DEFINITION, ROLE_REFERENCE, ROLE_IMPLICIT = 1 << 0, 1 << 1, 1 << 2, 1 << 8
# Overloads that Apple's Foundation overlay supplies for older systems: on Apple the type checker picks those when
# the newer one (from _StringProcessing) is not available at the deployment target; Linux's Foundation lacks them.
FOUNDATION_OVERLOADS = {("_StringProcessing", "StringProtocol.contains(_:)"),
                        ("_StringProcessing", "BidirectionalCollection.contains(_:)")}
DEP_UNIT, DEP_RECORD = 1, 2


class SetupError(Exception):
    pass


def sort_key(platform):
    return platform.lower()


def parse_version(text):
    parts = [int(p) for p in re.findall(r"\d+", text)[:3]]
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts)


def show_version(version):
    return ".".join(str(p) for p in version[:2]) + ("." + str(version[2]) if len(version) > 2 and version[2] else "")


def normalize_platform(name):
    return PLATFORM_ALIASES.get(name.strip().lower())


# ---------------------------------------------------------------------------------------------------------------------
# Package.swift: floor and availability macros


def read_floor(package_swift):
    text = strip_swift(open(package_swift, encoding="utf-8").read())
    m = re.search(r"platforms\s*:\s*\[", text)
    if not m:
        raise SetupError(f"{package_swift} has no `platforms:`; pass --floor macOS=13,iOS=16,…")
    end = text.find("]", m.end())
    body = open(package_swift, encoding="utf-8").read()[m.end():end]
    floor = {}
    for pm in re.finditer(r"\.(\w+)\s*\(\s*(?:\.v(\d+(?:_\d+)*)|\"([\d.]+)\")", body):
        platform = normalize_platform(pm.group(1))
        if platform:
            floor[platform] = parse_version((pm.group(2) or "").replace("_", ".") or pm.group(3))
    if not floor:
        raise SetupError(f"could not read the platforms of {package_swift}")
    return floor


def parse_floor_option(text):
    floor = {}
    for item in text.split(","):
        if not item.strip():
            continue
        name, _, version = item.partition("=")
        platform = normalize_platform(name)
        if not platform or not re.match(r"^\d+(\.\d+)*$", version.strip()):
            raise SetupError(f"--floor: cannot read {item!r} (use e.g. macOS=12,iOS=15,tvOS=15,watchOS=8)")
        floor[platform] = parse_version(version)
    return floor


def read_availability_macros(package_swift):
    macros = {}
    try:
        text = open(package_swift, encoding="utf-8").read()
    except OSError:
        return macros
    for m in re.finditer(r"AvailabilityMacro=([^:\"]+):([^\"]*)\"", text):
        macros[m.group(1).strip()] = m.group(2)
    return macros


def floor_text(floor):
    return ", ".join(f"{p} {show_version(floor[p])}" for p in sorted(floor, key=sort_key))


# ---------------------------------------------------------------------------------------------------------------------
# Swift text scanning


def strip_swift(text):
    """Returns text of the same length with comments and string literals (with their interpolations) blanked out."""
    out = list(text)
    n = len(text)
    i = 0

    def blank(a, b):
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif c == "/" and text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif c == '"' or (c == "#" and re.match(r"#+\"", text[i:i + 8])):
            hashes = 0
            while i + hashes < n and text[i + hashes] == "#":
                hashes += 1
            q = i + hashes
            multi = text.startswith('"""', q)
            close = ('"""' if multi else '"') + "#" * hashes
            j = q + (3 if multi else 1)
            escape = "\\" + "#" * hashes
            while j < n:
                if text.startswith(escape, j):
                    # skip the escaped character; an interpolation's parentheses are skipped as a whole
                    k = j + len(escape)
                    if k < n and text[k] == "(":
                        depth, k = 1, k + 1
                        while k < n and depth:
                            if text[k] == "(":
                                depth += 1
                            elif text[k] == ")":
                                depth -= 1
                            elif text[k] == '"' and not multi:
                                # nested string in an interpolation: skip it
                                e = k + 1
                                while e < n and text[e] != '"' and text[e] != "\n":
                                    e += 2 if text[e] == "\\" else 1
                                k = e
                            k += 1
                        j = k
                    else:
                        j = k + 1
                    continue
                if text.startswith(close, j):
                    j += len(close)
                    break
                if not multi and text[j] == "\n":
                    break
                j += 1
            blank(i, j)
            i = j
        else:
            i += 1
    return "".join(out)


def match_braces(stripped):
    pairs, stack = {}, []
    for i, c in enumerate(stripped):
        if c == "{":
            stack.append(i)
        elif c == "}" and stack:
            pairs[stack.pop()] = i
    enclosing_close = {}
    return pairs


def split_args(text):
    items, depth, cur = [], 0, []
    for c in text:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            items.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        items.append("".join(cur).strip())
    return items


def parse_availability_args(args, macros):
    """(versions {platform: version}, unavailable set, all_unavailable) of an @available/#available argument list."""
    versions, unavailable = {}, set()
    items = split_args(args)
    if not items:
        return versions, unavailable
    first = items[0].strip()
    rest = [i.strip() for i in items[1:]]
    long_form = any(r == "unavailable" or re.match(r"^(introduced|deprecated|obsoleted|message|renamed|noasync)\b", r)
                    for r in rest) or (len(items) >= 1 and (first == "*" and rest and rest[0] != "*"))
    if long_form:
        platform = "*" if first == "*" else normalize_platform(first)
        if platform is None:
            return versions, unavailable
        for r in rest:
            if r == "unavailable":
                unavailable.add(platform)
            m = re.match(r"^introduced\s*:\s*([\d.]+)", r)
            if m and platform != "*":
                versions[platform] = parse_version(m.group(1))
        return versions, unavailable
    for item in items:
        item = item.strip()
        if item == "*" or not item:
            continue
        if item in macros:
            v, u = parse_availability_args(macros[item], macros)
            versions.update(v)
            unavailable |= u
            continue
        m = re.match(r"^(\w+)\s+([\d.]+)$", item)
        if m:
            full = f"{m.group(1)} {m.group(2)}"
            if full in macros:
                v, u = parse_availability_args(macros[full], macros)
                versions.update(v)
                unavailable |= u
                continue
            platform = normalize_platform(m.group(1))
            if platform:
                versions[platform] = parse_version(m.group(2))
    return versions, unavailable


def matching_paren(s, open_index):
    depth = 0
    for k in range(open_index, len(s)):
        if s[k] == "(":
            depth += 1
        elif s[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return len(s) - 1


DECL_KEYWORDS = ("func", "var", "let", "init", "subscript", "class", "struct", "enum", "protocol", "extension",
                 "actor", "typealias", "case", "deinit", "macro", "associatedtype")
CONTINUATION = re.compile(r"^\s*(->|\.|where\b|throws\b|async\b|rethrows\b|:|,|&|=|\{|\)|\]|\?|<|>)")

# Conditions that can never be true when compiling for an Apple platform.
NON_APPLE_OS = {"linux", "windows", "android", "wasi", "freebsd", "openbsd", "cygwin", "haiku", "ps4", "none"}
NON_APPLE_IMPORTS = {"glibc", "musl", "bionic", "android", "wasilibc", "winsdk", "ucrt", "crt",
                     "foundationnetworking", "foundationxml", "systemd"}
APPLE_IMPORTS = {"darwin": set(("iOS", "macOS", "tvOS", "watchOS", "visionOS")),
                 "objectivec": set(("iOS", "macOS", "tvOS", "watchOS", "visionOS")),
                 "security": set(("iOS", "macOS", "tvOS", "watchOS", "visionOS")),
                 "network": set(("iOS", "macOS", "tvOS", "watchOS", "visionOS")),
                 "os": set(("iOS", "macOS", "tvOS", "watchOS", "visionOS")),
                 "combine": set(("iOS", "macOS", "tvOS", "watchOS", "visionOS")),
                 "cryptokit": set(("iOS", "macOS", "tvOS", "watchOS", "visionOS")),
                 "appkit": {"macOS"}}
IMPORTS_NOT_ON = {"appkit": {"iOS", "tvOS", "watchOS", "visionOS"}, "uikit": {"macOS"},
                  "watchkit": {"iOS", "macOS", "tvOS", "visionOS"}}


def eval_condition(expr, platform):
    """True/False/None (unknown) for an #if condition compiled for an Apple `platform`."""
    tokens = re.findall(r"&&|\|\||!|\(|\)|[A-Za-z_][\w.]*\s*\([^()]*\)|[A-Za-z_]\w*", expr)
    pos = [0]

    def atom(tok):
        m = re.match(r"^(\w+)\s*\(([^()]*)\)$", tok)
        if not m:
            return tok == "true" if tok in ("true", "false") else None
        fn, arg = m.group(1), m.group(2).strip()
        low = arg.lower()
        if fn == "os":
            if low in NON_APPLE_OS:
                return False
            p = normalize_platform(arg)
            if p:
                return p == platform
            if low == "xros":
                return platform == "visionOS"
            return None
        if fn == "canImport":
            low = low.split(",")[0].strip()
            if low in NON_APPLE_IMPORTS:
                return False
            if platform in IMPORTS_NOT_ON.get(low, ()):
                return False
            if platform in APPLE_IMPORTS.get(low, ()):
                return True
            return None
        return None

    def parse_or():
        v = parse_and()
        while pos[0] < len(tokens) and tokens[pos[0]] == "||":
            pos[0] += 1
            w = parse_and()
            v = True if (v is True or w is True) else (False if (v is False and w is False) else None)
        return v

    def parse_and():
        v = parse_not()
        while pos[0] < len(tokens) and tokens[pos[0]] == "&&":
            pos[0] += 1
            w = parse_not()
            v = False if (v is False or w is False) else (True if (v is True and w is True) else None)
        return v

    def parse_not():
        if pos[0] < len(tokens) and tokens[pos[0]] == "!":
            pos[0] += 1
            v = parse_not()
            return None if v is None else not v
        if pos[0] < len(tokens) and tokens[pos[0]] == "(":
            pos[0] += 1
            v = parse_or()
            if pos[0] < len(tokens) and tokens[pos[0]] == ")":
                pos[0] += 1
            return v
        if pos[0] < len(tokens):
            tok = tokens[pos[0]]
            pos[0] += 1
            return atom(tok)
        return None

    try:
        return parse_or()
    except Exception:
        return None


class SourceFile:
    """A Swift file's availability scopes and `#if` regions."""

    def __init__(self, path, platforms, macros):
        raw = open(path, "rb").read()
        self.text = raw.decode("utf-8", errors="replace")
        self.lines = self.text.split("\n")
        self.line_starts = [0]
        for line in self.lines[:-1]:
            self.line_starts.append(self.line_starts[-1] + len(line) + 1)
        self.stripped = strip_swift(self.text)
        self.platforms = platforms
        self.scopes = []  # (start, end, versions, unavailable)
        self.excluded = {}  # line number (1-based) -> set of platforms on which the line is not compiled
        self._scan_conditions()
        self._scan_scopes(macros)

    def offset(self, line, utf8_column):
        if line - 1 >= len(self.lines):
            return len(self.text)
        text = self.lines[line - 1]
        prefix = text.encode("utf-8")[:max(utf8_column - 1, 0)].decode("utf-8", errors="ignore")
        return self.line_starts[line - 1] + len(prefix)

    def position(self, offset):
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        col = len(self.text[self.line_starts[lo]:offset].encode("utf-8")) + 1
        return lo + 1, col

    def _scan_conditions(self):
        stack = []  # frames: {"prev": [conditions], "cur": condition, "excluded": set}
        current = set()
        for number, line in enumerate(self.stripped.split("\n"), start=1):
            s = line.strip()
            m = re.match(r"^#(if|elseif|else|endif)\b(.*)$", s)
            if m:
                kind, cond = m.group(1), m.group(2).strip()
                if kind == "if":
                    stack.append({"outer": current, "prev": [], "cur": cond})
                elif kind in ("elseif", "else") and stack:
                    frame = stack[-1]
                    frame["prev"].append(frame["cur"])
                    frame["cur"] = cond if kind == "elseif" else "true"
                elif kind == "endif" and stack:
                    current = stack.pop()["outer"]
                    self.excluded[number] = current
                    continue
                if stack:
                    frame = stack[-1]
                    excluded = set(frame["outer"])
                    for platform in self.platforms:
                        values = [eval_condition(c, platform) for c in frame["prev"]]
                        now = eval_condition(frame["cur"], platform)
                        if now is False or any(v is True for v in values):
                            excluded.add(platform)
                    current = excluded
            self.excluded[number] = current

    def _scan_scopes(self, macros):
        s = self.stripped
        self.pairs = match_braces(s)
        opens = sorted(self.pairs)
        self._opens = opens
        for m in re.finditer(r"@available\s*\(", s):
            close = matching_paren(s, m.end() - 1)
            versions, unavailable = parse_availability_args(s[m.end():close], macros)
            if not versions and not unavailable:
                continue
            end = self._declaration_end(close + 1)
            self.scopes.append((m.start(), end, versions, unavailable))
        for m in re.finditer(r"#(available|unavailable)\s*\(", s):
            close = matching_paren(s, m.end() - 1)
            versions, _ = parse_availability_args(s[m.end():close], macros)
            if not versions:
                continue
            boundary = max(s.rfind("{", 0, m.start()), s.rfind("}", 0, m.start()), s.rfind(";", 0, m.start()))
            head = s[boundary + 1:m.start()]
            kw = re.findall(r"\b(if|while|guard)\b", head)
            kind = kw[-1] if kw else "if"
            body = self._next_brace(close + 1)
            if body is None:
                continue
            body_close = self.pairs[body]
            if m.group(1) == "available":
                if kind == "guard":
                    self.scopes.append((body_close, self._enclosing_close(m.start()), versions, set()))
                else:
                    self.scopes.append((body, body_close, versions, set()))
            else:
                em = re.match(r"\s*else\s*\{", s[body_close + 1:])
                if kind == "if" and em:
                    else_open = body_close + em.end()
                    self.scopes.append((else_open, self.pairs.get(else_open, len(s)), versions, set()))
                elif kind == "guard":
                    # guard #unavailable(X) else { … }: the else block runs where X is available
                    self.scopes.append((body, body_close, versions, set()))

    def _next_brace(self, start):
        s, depth = self.stripped, 0
        for k in range(start, len(s)):
            c = s[k]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == "{" and depth <= 0:
                return k if k in self.pairs else None
            elif c == "}" and depth <= 0:
                return None
        return None

    def _enclosing_close(self, offset):
        best = None
        for o in self._opens:
            if o >= offset:
                break
            c = self.pairs[o]
            if c > offset and (best is None or o > best):
                best = o
        return self.pairs[best] if best is not None else len(self.stripped)

    def _declaration_end(self, start):
        """End offset of the declaration an attribute ending at `start` belongs to."""
        s = self.stripped
        modifiers = re.compile(r"(?:\s|\b(?:public|private|fileprivate|internal|package|open|final|"
                               r"static|class(?=\s+(?:func|var|let|subscript|init))|override|mutating|nonmutating|"
                               r"nonisolated|convenience|required|dynamic|lazy|weak|unowned|indirect|prefix|postfix|"
                               r"infix|isolated|consuming|borrowing|distributed|optional|async)\b)*")
        attribute = re.compile(r"@\w+(?:\.\w+)*\s*")
        k = start
        while True:
            # Skip modifiers and attributes, whose arguments may nest parentheses (`@Test(arguments: [(1, 2)])`).
            k = modifiers.match(s, k).end()
            a = attribute.match(s, k)
            if not a:
                break
            k = a.end()
            if k < len(s) and s[k] == "(":
                k = matching_paren(s, k) + 1
        depth = 0
        while k < len(s):
            c = s[k]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == "{" and depth <= 0:
                return self.pairs.get(k, len(s))
            elif c == "}" and depth <= 0:
                return k
            elif c == ";" and depth <= 0:
                return k
            elif c == "\n" and depth <= 0:
                nxt = s[k + 1:k + 200]
                before = s[max(0, k - 40):k].rstrip()
                if not CONTINUATION.match(nxt) and nxt.strip() and not re.search(r"([,:&=(<]|->|\bwhere)$", before):
                    return k
            k += 1
        return len(s)

    def coverage(self, offset, platform):
        """(version that the code around `offset` guarantees or None, whether it is marked unavailable there)."""
        version, unavailable = None, False
        for start, end, versions, unavail in self.scopes:
            if start <= offset <= end:
                if platform in unavail or "*" in unavail:
                    unavailable = True
                v = versions.get(platform)
                if v and (version is None or v > version):
                    version = v
        return version, unavailable


# ---------------------------------------------------------------------------------------------------------------------
# libIndexStore


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

    def str(self):
        return ctypes.string_at(self.data, self.length).decode("utf-8", errors="replace") if self.length else ""


class IndexStore:
    def __init__(self, library, path):
        try:
            lib = ctypes.CDLL(library)
        except OSError as error:
            raise SetupError(f"cannot load {library}: {error}")
        self.lib = lib
        vp, cp = ctypes.c_void_p, ctypes.c_char_p
        err = ctypes.POINTER(vp)

        def f(name, restype, *argtypes):
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, list(argtypes)
            return fn

        self.UNIT_CB = ctypes.CFUNCTYPE(ctypes.c_bool, vp, StringRef)
        self.PTR_CB = ctypes.CFUNCTYPE(ctypes.c_bool, vp, vp)
        self.error_description = f("indexstore_error_get_description", cp, vp)
        self.store_create = f("indexstore_store_create", vp, cp, err)
        self.units_apply = f("indexstore_store_units_apply_f", ctypes.c_bool, vp, ctypes.c_uint, vp, self.UNIT_CB)
        self.unit_reader_create = f("indexstore_unit_reader_create", vp, vp, cp, err)
        self.unit_reader_dispose = f("indexstore_unit_reader_dispose", None, vp)
        self.unit_has_main = f("indexstore_unit_reader_has_main_file", ctypes.c_bool, vp)
        self.unit_main_file = f("indexstore_unit_reader_get_main_file", StringRef, vp)
        self.unit_module_name = f("indexstore_unit_reader_get_module_name", StringRef, vp)
        self.unit_mtime = f("indexstore_unit_reader_get_modification_time", None, vp,
                            ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64))
        self.unit_deps_apply = f("indexstore_unit_reader_dependencies_apply_f", ctypes.c_bool, vp, vp, self.PTR_CB)
        self.dep_kind = f("indexstore_unit_dependency_get_kind", ctypes.c_int, vp)
        self.dep_name = f("indexstore_unit_dependency_get_name", StringRef, vp)
        self.dep_module = f("indexstore_unit_dependency_get_modulename", StringRef, vp)
        self.dep_path = f("indexstore_unit_dependency_get_filepath", StringRef, vp)
        self.record_reader_create = f("indexstore_record_reader_create", vp, vp, cp, err)
        self.record_reader_dispose = f("indexstore_record_reader_dispose", None, vp)
        self.record_symbols_apply = f("indexstore_record_reader_symbols_apply_f", ctypes.c_bool, vp, ctypes.c_bool,
                                      vp, self.PTR_CB)
        self.record_occurrences_of_symbols = f(
            "indexstore_record_reader_occurrences_of_symbols_apply_f", ctypes.c_bool, vp,
            ctypes.POINTER(vp), ctypes.c_size_t, ctypes.POINTER(vp), ctypes.c_size_t, vp, self.PTR_CB)
        self.occ_symbol = f("indexstore_occurrence_get_symbol", vp, vp)
        self.occ_roles = f("indexstore_occurrence_get_roles", ctypes.c_uint64, vp)
        self.occ_line_col = f("indexstore_occurrence_get_line_col", None, vp, ctypes.POINTER(ctypes.c_uint),
                              ctypes.POINTER(ctypes.c_uint))
        self.sym_usr = f("indexstore_symbol_get_usr", StringRef, vp)
        self.sym_name = f("indexstore_symbol_get_name", StringRef, vp)
        error = vp()
        self.store = self.store_create(path.encode(), ctypes.byref(error))
        if not self.store:
            raise SetupError(f"cannot open the index store {path}: {self._error(error)}")

    def _error(self, error):
        return self.error_description(error).decode() if error.value else "unknown error"

    def units(self):
        names = []

        def cb(_, ref):
            names.append(ref.str())
            return True

        self.units_apply(self.store, 0, None, self.UNIT_CB(cb))
        return names

    def unit(self, name):
        """(main file, module name, modification time, [(record name, file path)], [module dependency names])."""
        error = ctypes.c_void_p()
        reader = self.unit_reader_create(self.store, name.encode(), ctypes.byref(error))
        if not reader:
            return None
        try:
            if not self.unit_has_main(reader):
                return None
            main = self.unit_main_file(reader).str()
            module = self.unit_module_name(reader).str()
            sec, nsec = ctypes.c_int64(), ctypes.c_int64()
            self.unit_mtime(reader, ctypes.byref(sec), ctypes.byref(nsec))
            records, modules = [], []

            def cb(_, dep):
                kind = self.dep_kind(dep)
                if kind == DEP_RECORD:
                    records.append((self.dep_name(dep).str(), self.dep_path(dep).str()))
                elif kind == DEP_UNIT:
                    mod = self.dep_module(dep).str()
                    if mod:
                        modules.append(mod)
                return True

            self.unit_deps_apply(reader, None, self.PTR_CB(cb))
            return main, module, sec.value + nsec.value / 1e9, records, modules
        finally:
            self.unit_reader_dispose(reader)

    def references(self, record, wanted):
        """[(usr, name, line, column)] of the reference occurrences of USRs in `wanted` in a record."""
        error = ctypes.c_void_p()
        reader = self.record_reader_create(self.store, record.encode(), ctypes.byref(error))
        if not reader:
            return []
        try:
            symbols = {}

            def sym_cb(_, sym):
                usr = self.sym_usr(sym).str()
                if usr in wanted:
                    symbols[sym] = (usr, self.sym_name(sym).str())
                return True

            self.record_symbols_apply(reader, False, None, self.PTR_CB(sym_cb))
            if not symbols:
                return []
            found = []
            line, col = ctypes.c_uint(), ctypes.c_uint()

            def occ_cb(_, occ):
                roles = self.occ_roles(occ)
                if roles & ROLE_REFERENCE and not roles & (ROLE_DECLARATION | ROLE_DEFINITION | ROLE_IMPLICIT):
                    sym = self.occ_symbol(occ)
                    if sym in symbols:
                        self.occ_line_col(occ, ctypes.byref(line), ctypes.byref(col))
                        usr, name = symbols[sym]
                        found.append((usr, name, line.value, col.value))
                return True

            array = (ctypes.c_void_p * len(symbols))(*symbols.keys())
            self.record_occurrences_of_symbols(reader, array, len(symbols), None, 0, None, self.PTR_CB(occ_cb))
            return found
        finally:
            self.record_reader_dispose(reader)


# ---------------------------------------------------------------------------------------------------------------------
# Symbol graphs


def clang_flags_from_build(build_dir):
    """-Xcc flags (module maps, include paths) that SwiftPM passes to swiftc, from the build's <config>.yaml."""
    flags, seen = [], set()
    config = os.path.basename(os.path.realpath(build_dir))
    candidates = [os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(build_dir))), config + ".yaml")]
    for yaml in candidates:
        if not os.path.exists(yaml):
            continue
        text = open(yaml, encoding="utf-8", errors="replace").read()
        for m in re.finditer(r'"-Xcc","(-fmodule-map-file=[^"]+)"', text):
            if m.group(1) not in seen:
                seen.add(m.group(1))
                flags += ["-Xcc", m.group(1)]
        for m in re.finditer(r'"-Xcc","-I","-Xcc","([^"]+)"', text):
            key = "-I" + m.group(1)
            if key not in seen:
                seen.add(key)
                flags += ["-Xcc", "-I", "-Xcc", m.group(1)]
    return flags


def extract_graph(tool, module, target, out_dir, search_paths, extra, access, cache_dir):
    os.makedirs(out_dir, exist_ok=True)
    cmd = [tool, "-module-name", module, "-target", target, "-output-dir", out_dir, "-minimum-access-level", access,
           "-skip-synthesized-members", "-skip-inherited-docs", "-include-spi-symbols",
           "-module-cache-path", cache_dir]
    for p in search_paths:
        cmd += ["-I", p]
    cmd += extra
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    files = [os.path.join(out_dir, f) for f in os.listdir(out_dir) if f.endswith(".symbols.json")]
    return module, files, (proc.stdout if proc.returncode != 0 or not files else "")


class AvailabilityTable:
    def __init__(self):
        self.own = {}       # usr -> {platform: (introduced or None, unavailable)}
        self.parent = {}    # usr -> usr of its memberOf target
        self.name = {}      # usr -> display name
        self.module = {}    # usr -> module
        self.title = {}     # usr -> last path component
        self._cache = {}

    def load(self, path):
        module = os.path.basename(path).split(".symbols.json")[0].split("@")[0]
        with open(path, "rb") as fh:
            graph = json.load(fh)
        for sym in graph.get("symbols", ()):
            usr = sym["identifier"]["precise"]
            self.name.setdefault(usr, ".".join(sym.get("pathComponents") or [sym["names"]["title"]]))
            self.module.setdefault(usr, module)
            self.title.setdefault(usr, (sym.get("pathComponents") or [""])[-1])
            avail = sym.get("availability")
            if not avail:
                continue
            entry = self.own.setdefault(usr, {})
            for a in avail:
                domain = a.get("domain")
                platform = "*" if domain == "*" else normalize_platform(domain or "")
                if platform is None:
                    continue
                intro, unavailable = entry.get(platform, (None, False))
                if "introduced" in a:
                    v = a["introduced"]
                    v = (v.get("major", 0), v.get("minor", 0), v.get("patch", 0))
                    intro = v if intro is None or v > intro else intro
                if a.get("isUnconditionallyUnavailable"):
                    unavailable = True
                entry[platform] = (intro, unavailable)
        for rel in graph.get("relationships", ()):
            if rel.get("kind") == "memberOf":
                self.parent.setdefault(rel["source"], rel["target"])
        self._siblings = None

    def siblings(self, usr):
        """Other overloads: declarations with the same name and labels in the same type (or module)."""
        if self._siblings is None:
            self._siblings = {}
            for u, title in self.title.items():
                key = (self.parent.get(u) or self.module.get(u), title)
                self._siblings.setdefault(key, []).append(u)
        key = (self.parent.get(usr) or self.module.get(usr), self.title.get(usr))
        return [u for u in self._siblings.get(key, ()) if u != usr]

    def effective(self, usr, depth=0):
        if usr in self._cache:
            return self._cache[usr]
        result = {}
        parent = self.parent.get(usr)
        if parent and depth < 20:
            for platform, (intro, unavailable) in self.effective(parent, depth + 1).items():
                result[platform] = (intro, unavailable)
        for platform, (intro, unavailable) in self.own.get(usr, {}).items():
            p_intro, p_unavail = result.get(platform, (None, False))
            if intro is not None and (p_intro is None or intro > p_intro):
                p_intro = intro
            result[platform] = (p_intro, p_unavail or unavailable)
        self._cache[usr] = result
        return result

    def requirement(self, usr, platforms):
        """{platform: (introduced or None, unavailable)} for the declared platforms, or {} if nothing applies."""
        eff = self.effective(usr)
        star_unavailable = eff.get("*", (None, False))[1]
        req = {}
        for platform in platforms:
            intro, unavailable = eff.get(platform, (None, False))
            if star_unavailable:
                unavailable = True
            if intro is not None or unavailable:
                req[platform] = (intro, unavailable)
        return req


# ---------------------------------------------------------------------------------------------------------------------
# Text patterns (Scripts/availability/foundation.txt)


def load_patterns(path):
    patterns = []
    if not path or not os.path.exists(path):
        return patterns
    for number, line in enumerate(open(path, encoding="utf-8"), start=1):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if " => " not in line:
            raise SetupError(f"{path}:{number}: expected `<regex> => <platform version>, … [# source]`")
        regex, _, rest = line.partition(" => ")
        spec, _, comment = rest.partition("#")
        req = {}
        for item in spec.split(","):
            item = item.strip()
            m = re.match(r"^(\w+)\s+(unavailable|[\d.]+)$", item)
            platform = normalize_platform(m.group(1)) if m else None
            if not platform:
                raise SetupError(f"{path}:{number}: cannot read {item!r}")
            req[platform] = (None, True) if m.group(2) == "unavailable" else (parse_version(m.group(2)), False)
        try:
            compiled = re.compile(regex.strip())
        except re.error as error:
            raise SetupError(f"{path}:{number}: bad regex: {error}")
        patterns.append((compiled, req, comment.strip()))
    return patterns


# ---------------------------------------------------------------------------------------------------------------------
# The check


def check_use(source, offset, req, floor):
    """Platforms on which a use at `offset` with requirement `req` is a problem: [(platform, intro, unavailable)]."""
    line = source.position(offset)[0]
    excluded = source.excluded.get(line, set())
    problems = []
    for platform in sorted(floor, key=sort_key):
        if platform in excluded or platform not in req:
            continue
        intro, unavailable = req[platform]
        scope_version, scope_unavailable = source.coverage(offset, platform)
        if scope_unavailable:
            continue
        if unavailable:
            problems.append((platform, intro, True, scope_version))
        elif intro is not None:
            have = max(floor[platform], scope_version) if scope_version else floor[platform]
            if intro > have:
                problems.append((platform, intro, False, scope_version))
    return problems


def describe(name, req, problems, floor, module):
    unavailable = [p for p, _, u, _ in problems if u]
    needs = [f"{p} {show_version(i)}" for p, i, u, _ in problems if not u and i is not None]
    parts = []
    if unavailable:
        parts.append("is unavailable on " + ", ".join(unavailable))
    if needs:
        parts.append("needs " + ", ".join(needs))
    failing = {p for p, _, _, _ in problems}
    covered = [p for p in sorted(floor, key=sort_key) if p in req and p not in failing and
               (req[p][1] or (req[p][0] is not None and req[p][0] > floor[p]))]
    scope = f"; the enclosing @available/#available covers {', '.join(covered)}" if covered else ""
    return f"'{name}' {' and '.join(parts)}; the package declares {floor_text(floor)}{scope} ({module})"


class Checker:
    def __init__(self, args):
        self.args = args
        self.package = os.path.realpath(args.package_path)
        self.toolchain_lib = args.toolchain_lib
        self.toolchain_bin = args.toolchain_bin
        self.tmp = None

    def log(self, message):
        if self.args.verbose:
            print(message, file=sys.stderr)

    def run(self, floor, roots, build_dir, store_path, modules_dir, patterns, own_access="private",
            wanted_cache=None):
        """Returns (problems, notes). problems: [(path, line, col, message, key)]."""
        started = time.time()
        notes = []
        store = IndexStore(os.path.join(self.toolchain_lib, "libIndexStore.so"), store_path)
        roots = [os.path.realpath(r) + os.sep for r in roots]
        units = []
        for name in store.units():
            info = store.unit(name)
            if not info:
                continue
            main = os.path.realpath(info[0]) if info[0] else ""
            if any(main.startswith(r) for r in roots):
                units.append((main,) + info[1:])
        if not units:
            raise SetupError(f"the index store {store_path} has no unit for a file under "
                             f"{', '.join(r.rstrip(os.sep) for r in roots)}; run `swift build` first")
        self.log(f"{len(units)} units under the roots ({time.time() - started:.1f}s)")

        # Which modules to read availability from.
        own_modules = {u[1] for u in units if u[1]}
        dep_modules = set()
        for u in units:
            dep_modules.update(u[4])
        toolchain_dir = os.path.join(os.path.dirname(self.toolchain_lib), "lib", "swift", "linux")
        if not os.path.isdir(toolchain_dir):
            toolchain_dir = os.path.join(self.toolchain_lib, "swift", "linux")
        wanted_modules = {}
        for m in TOOLCHAIN_MODULES + (FOUNDATION_MODULES if self.args.foundation_graphs else []):
            wanted_modules[m] = "public"
        for m in sorted(dep_modules | own_modules):
            if m in TOOLCHAIN_SKIP or m in FOUNDATION_MODULES or m in wanted_modules:
                continue
            if os.path.exists(os.path.join(modules_dir, m + ".swiftmodule")):
                wanted_modules[m] = own_access if m in own_modules else "public"
            elif m in own_modules:
                notes.append(f"note: no {m}.swiftmodule in {modules_dir}; uses of its own declarations are "
                             "not checked")
        table = self.load_graphs(wanted_modules, modules_dir, build_dir)
        self.log(f"symbol graphs of {len(wanted_modules)} modules ({time.time() - started:.1f}s)")

        platforms = set(floor)
        wanted = {}
        for usr in table.own:
            req = table.requirement(usr, platforms)
            if any(u or (i is not None and i > floor[p]) for p, (i, u) in req.items()):
                wanted[usr] = req
        # members that inherit from a type with a requirement but say nothing themselves
        for usr in table.parent:
            if usr not in wanted:
                req = table.requirement(usr, platforms)
                if any(u or (i is not None and i > floor[p]) for p, (i, u) in req.items()):
                    wanted[usr] = req

        sources, problems, stale, missing = {}, [], [], []
        indexed_files = set()
        seen = set()

        def source(path):
            if path not in sources:
                try:
                    sources[path] = SourceFile(path, platforms, self.macros)
                except OSError:
                    sources[path] = None
            return sources[path]

        for main, module, mtime, records, _ in units:
            if not os.path.exists(main):
                continue
            indexed_files.add(main)
            if os.path.getmtime(main) > mtime + 1:
                stale.append(main)
            for record, record_path in records:
                path = os.path.realpath(record_path) if record_path else main
                for usr, index_name, line, col in store.references(record, wanted):
                    key = (path, line, col, usr)
                    if key in seen:
                        continue
                    seen.add(key)
                    src = source(path)
                    if src is None:
                        continue
                    req = wanted[usr]
                    offset = src.offset(line, col)
                    found = check_use(src, offset, req, floor)
                    if found and (table.module.get(usr), table.name.get(usr)) in FOUNDATION_OVERLOADS and \
                            re.search(r"^\s*(@\w+\s+)*import\s+Foundation\b", src.stripped, re.M):
                        found = []
                    if found and any(not check_use(src, offset, table.requirement(other, platforms), floor)
                                     for other in table.siblings(usr)):
                        # an overload that is available here exists; the type checker picks it on Apple platforms
                        found = []
                    if found:
                        name = table.name.get(usr, index_name)
                        problems.append([path, line, col, req, found, name, "module " + table.module.get(usr, "?"),
                                         usr])
        self.log(f"index references checked ({time.time() - started:.1f}s)")

        # Text patterns over every Swift file under the roots.
        index_lines = {}
        for p in problems:
            index_lines.setdefault((p[0], p[1]), []).append(p[3])
        for root in roots:
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames[:] = [d for d in dirnames if not d.startswith(".")]
                for filename in filenames:
                    if not filename.endswith(".swift"):
                        continue
                    path = os.path.join(dirpath, filename)
                    if path not in indexed_files and "/fixtures/" not in path:
                        missing.append(path)
                    if not patterns:
                        continue
                    src = source(path)
                    if src is None:
                        continue
                    for regex, req, comment in patterns:
                        for m in regex.finditer(src.stripped):
                            found = check_use(src, m.start(), req, floor)
                            if not found:
                                continue
                            line, col = src.position(m.start())
                            covered = any(all(other.get(p, (None, False))[0] is not None and
                                              other[p][0] >= req[p][0] for p in req if req[p][0] is not None)
                                          for other in index_lines.get((path, line), []))
                            if covered:
                                continue
                            problems.append([path, line, col, req, found, m.group(0).strip(),
                                             "foundation.txt" + (f": {comment}" if comment else ""), None])

        # One line per position: the symbol with the highest requirement.
        by_position = {}
        for p in problems:
            key = (p[0], p[1], p[2])
            rank = (len(p[4]), max((i or (0,)) for _, i, _, _ in p[4]), -len(p[5]))
            if key not in by_position or rank > by_position[key][0]:
                by_position[key] = (rank, p)
        result = []
        for (path, line, col), (_, p) in by_position.items():
            rel = os.path.relpath(path, self.package)
            result.append((rel, line, col, describe(p[5], p[3], p[4], floor, p[6]), p))
        result.sort(key=lambda r: (r[0], r[1], r[2]))
        if stale:
            notes.append(f"warning: {len(stale)} file(s) changed after they were indexed (e.g. "
                         f"{os.path.relpath(sorted(stale)[0], self.package)}); lines may be off — run `swift build` "
                         "for exact results")
        if missing:
            notes.append(f"warning: {len(missing)} Swift file(s) under the checked folders have no index unit (e.g. "
                         f"{os.path.relpath(sorted(missing)[0], self.package)}); only foundation.txt patterns were "
                         "checked there — run `swift build` (with --build-tests for Tests/)")
        self.checked_files = len(indexed_files)
        self.wanted = wanted
        self.table = table
        return result, notes

    def load_graphs(self, modules, modules_dir, build_dir):
        if self.tmp is None:
            self.tmp = tempfile.mkdtemp(prefix="check-availability-")
        tool = os.path.join(self.toolchain_bin, "swift-symbolgraph-extract")
        if not os.path.exists(tool):
            raise SetupError(f"no swift-symbolgraph-extract in {self.toolchain_bin}")
        extra = clang_flags_from_build(build_dir) if build_dir else []
        target = self.args.target
        cache = os.path.join(self.tmp, "ModuleCache")
        table = AvailabilityTable()
        jobs = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
            for module, access in sorted(modules.items()):
                out = os.path.join(self.tmp, "graphs", f"{module}-{access}")
                if os.path.isdir(out) and any(f.endswith(".symbols.json") for f in os.listdir(out)):
                    jobs.append(pool.submit(lambda m=module, o=out: (m, [os.path.join(o, f) for f in os.listdir(o)
                                                                         if f.endswith(".symbols.json")], "")))
                    continue
                jobs.append(pool.submit(extract_graph, tool, module, target, out, [modules_dir], extra, access,
                                        cache))
            for job in jobs:
                module, files, error = job.result()
                if error:
                    print(f"warning: could not extract the symbol graph of {module}; its availability is not "
                          f"checked:\n  " + "\n  ".join(error.strip().splitlines()[:5]), file=sys.stderr)
                for path in files:
                    table.load(path)
        return table

    def cleanup(self):
        if self.tmp and not self.args.keep_temp:
            shutil.rmtree(self.tmp, ignore_errors=True)


# ---------------------------------------------------------------------------------------------------------------------
# Self-test


def self_test(checker, args, patterns):
    fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "availability", "fixtures")
    files = sorted(f for f in os.listdir(fixtures) if f.endswith(".swift"))
    checker.tmp = tempfile.mkdtemp(prefix="check-availability-")
    store = os.path.join(checker.tmp, "store")
    modules = os.path.join(checker.tmp, "Modules")
    os.makedirs(modules)
    swiftc = os.path.join(checker.toolchain_bin, "swiftc")
    cases = []
    passed = failed = 0
    for f in files:
        path = os.path.join(fixtures, f)
        module = "Fixture_" + re.sub(r"\W", "_", f[:-6])
        text = open(path, encoding="utf-8").read()
        expectations = re.findall(r"^// expect (old|new|floor=\S+): (\d+)\s*$", text, re.M)
        if not expectations:
            print(f"FAIL {f}: no `// expect old|new: N` line")
            failed += 1
            continue
        proc = subprocess.run([swiftc, "-parse-as-library", "-module-name", module, "-emit-module",
                               "-emit-module-path", os.path.join(modules, module + ".swiftmodule"),
                               "-index-store-path", store, path], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, cwd=checker.tmp)
        if proc.returncode != 0:
            print(f"FAIL {f}: does not compile:\n{proc.stdout}")
            failed += 1
            continue
        for which, count in expectations:
            cases.append((f, path, which, int(count)))
    floors = {"old": parse_floor_option("iOS=15,macOS=12,tvOS=15,watchOS=8"),
              "new": parse_floor_option("iOS=16,macOS=13,tvOS=16,watchOS=9")}
    results = {}
    for which in sorted({c[2] for c in cases}):
        floor = floors.get(which) or parse_floor_option(which.split("=", 1)[1])
        problems, _ = checker.run(floor, [fixtures], None, store, modules, patterns)
        results[which] = problems
    for f, path, which, count in cases:
        rel = os.path.relpath(path, checker.package)
        got = [p for p in results[which] if p[0] == rel]
        verdict = "fail" if count else "pass"
        if len(got) == count:
            passed += 1
            print(f"ok   {f} ({which} floor): {verdict}" + (f", {count} problem(s)" if count else ""))
        else:
            failed += 1
            print(f"FAIL {f} ({which} floor): expected {count} problem(s), got {len(got)}")
            for p in got:
                print(f"       {p[0]}:{p[1]}:{p[2]}: {p[3]}")
    checker.cleanup()
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed else 1


# ---------------------------------------------------------------------------------------------------------------------


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--package-path", default=os.path.dirname(here), help="the package (default: ..)")
    parser.add_argument("--build-path", help="the build's bin folder (default: <package>/.build/debug)")
    parser.add_argument("--toolchain-lib", default="/opt/swift/usr/lib", help="folder with libIndexStore.so")
    parser.add_argument("--toolchain-bin", default="/opt/swift/usr/bin", help="folder with swift-symbolgraph-extract")
    parser.add_argument("--target", default=f"{os.uname().machine}-unknown-linux-gnu")
    parser.add_argument("--floor", help="override Package.swift, e.g. macOS=12,iOS=15,tvOS=15,watchOS=8")
    parser.add_argument("--only", action="append", metavar="FOLDER",
                        help="check only files under this folder of the package (repeatable; default Sources, Tests)")
    parser.add_argument("--patterns", default=os.path.join(here, "availability", "foundation.txt"))
    parser.add_argument("--no-patterns", action="store_true", help="skip foundation.txt")
    parser.add_argument("--foundation-graphs", action="store_true",
                        help="also use FoundationEssentials' availability (swift-foundation's; can be later than Apple's)")
    parser.add_argument("--json", action="store_true", help="print the problems as JSON")
    parser.add_argument("--list-symbols", action="store_true",
                        help="also list every referenced declaration that needs more than the floor")
    parser.add_argument("--self-test", action="store_true", help="check the fixtures in availability/fixtures")
    parser.add_argument("--keep-temp", action="store_true", help="keep the extracted symbol graphs")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    checker = Checker(args)
    package_swift = os.path.join(checker.package, "Package.swift")
    checker.macros = read_availability_macros(package_swift)
    try:
        patterns = [] if args.no_patterns else load_patterns(args.patterns)
        if args.self_test:
            return self_test(checker, args, patterns)
        floor = parse_floor_option(args.floor) if args.floor else read_floor(package_swift)
        build = args.build_path or os.path.join(checker.package, ".build", "debug")
        if not args.build_path and not os.path.isdir(build):
            alt = os.path.join(checker.package, ".build", args.target, "debug")
            if os.path.isdir(alt):
                build = alt
        store_path = os.path.join(build, "index", "store")
        if not os.path.isdir(store_path):
            raise SetupError(f"no index store at {store_path}; run `swift build` (or `swift build --build-tests`) "
                             "first")
        modules_dir = os.path.join(build, "Modules")
        roots = [os.path.join(checker.package, r) for r in (args.only or ["Sources", "Tests"])]
        roots = [r for r in roots if os.path.isdir(r)]
        if not roots:
            raise SetupError("none of the folders to check exists")
        problems, notes = checker.run(floor, roots, build, store_path, modules_dir, patterns)
    except SetupError as error:
        print(f"error: {error}", file=sys.stderr)
        checker.cleanup()
        return 2
    for note in notes:
        print(note, file=sys.stderr)
    if args.list_symbols:
        used = {}
        for p in problems:
            if p[4][7]:
                used[p[4][7]] = used.get(p[4][7], 0) + 1
        for usr, count in sorted(used.items(), key=lambda x: checker.table.name.get(x[0], "")):
            req = checker.wanted[usr]
            spec = ", ".join(f"{p} " + ("unavailable" if u else show_version(i)) for p, (i, u) in
                             sorted(req.items(), key=lambda x: sort_key(x[0])))
            print(f"symbol: {checker.table.name.get(usr)} ({checker.table.module.get(usr)}) {spec}; "
                  f"{count} problem use(s); {usr}", file=sys.stderr)
    if args.json:
        print(json.dumps([{"path": p[0], "line": p[1], "column": p[2], "message": p[3]} for p in problems],
                         indent=1))
    else:
        for path, line, col, message, _ in problems:
            print(f"{path}:{line}:{col}: error: {message}")
    files = len({p[0] for p in problems})
    summary_to = sys.stderr if args.json else sys.stdout
    if problems:
        print(f"{len(problems)} availability problem(s) in {files} file(s); the package declares {floor_text(floor)}",
              file=summary_to)
    else:
        print(f"no availability problems in {checker.checked_files} indexed file(s); the package declares "
              f"{floor_text(floor)}", file=summary_to)
    checker.cleanup()
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
