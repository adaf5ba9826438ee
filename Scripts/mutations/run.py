"""Runs the mutants of mutants.py (see check-mutations.sh)."""

import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from mutants import MUTANTS  # noqa: E402


# A mutant's tests run alone on a quiet machine, so a wait that lasts this long is a hang (the suite's own limit, 120 s,
# allows for the whole suite pinned to one busy core). The unmutated code first passes every mutant's tests within it.
HANG_SECONDS = "30"


def run(command, timeout, env=None):
    started = time.monotonic()
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
        code, output = result.returncode, result.stdout + result.stderr
    except subprocess.TimeoutExpired as expired:
        code, output = "timeout", (expired.stdout or b"").decode(errors="replace") if isinstance(expired.stdout, bytes) else (expired.stdout or "")
    return code, output, time.monotonic() - started


def failed_tests(output):
    names = []
    for line in output.splitlines():
        if line.startswith("✘ Test ") and " recorded an issue" not in line and not line.startswith("✘ Test run "):
            names.append(line[len("✘ Test "):].split(" failed")[0].split(" with ")[0])
    return sorted(set(names))


def main():
    only_look = "--check" in sys.argv[1:]
    chosen = [int(arg) for arg in sys.argv[1:] if arg != "--check"] or list(range(1, len(MUTANTS) + 1))
    survivors = []
    rows = []
    # Every mutant's code is looked for before any is built, so a moved line fails the run in a second, not at its end.
    for number in chosen:
        mutant = MUTANTS[number - 1]
        path = Path(mutant["file"])
        if not path.exists() or mutant["old"] not in path.read_text():
            print(f"error: mutant {number} ({mutant['name']}): its code is no longer in {path}", file=sys.stderr)
            return 2
    if only_look:
        print(f"the code of {len(chosen)} mutants is where mutants.py says")
        return 0
    hang_env = dict(os.environ, COURIER_HANG_SECONDS=HANG_SECONDS)
    # With the shorter hang limit, the unmutated code passes the tests of every chosen mutant: a mutant is then killed
    # by a test that fails because of the mutant, not because of the limit.
    code, output, seconds = run(["swift", "build", "--build-tests"], 1800)
    if code != 0:
        print(output[-4000:])
        print("error: the unmutated code does not compile", file=sys.stderr)
        return 2
    every_filter = "|".join(f"(?:{MUTANTS[number - 1]['tests']})" for number in chosen)
    code, output, seconds = run(["swift", "test", "--skip-build", "--filter", every_filter], 900, hang_env)
    if code != 0:
        print(output[-8000:])
        print(f"error: unmutated, the mutants' tests fail with a hang limit of {HANG_SECONDS} s: "
              f"{', '.join(failed_tests(output)) or code}", file=sys.stderr)
        return 2
    print(f"== unmutated, every chosen mutant's tests pass with a hang limit of {HANG_SECONDS} s ({seconds:.0f} s)",
          flush=True)
    for number in chosen:
        mutant = MUTANTS[number - 1]
        path = Path(mutant["file"])
        original = path.read_text()
        print(f"== mutant {number}: {mutant['name']}", flush=True)
        try:
            path.write_text(original.replace(mutant["old"], mutant["new"]))
            code, output, seconds = run(["swift", "build", "--build-tests"], 1800)
            if code != 0:
                print(output[-4000:])
                print(f"error: mutant {number} does not compile", file=sys.stderr)
                return 2
            print(f"   built in {seconds:.0f} s", flush=True)
            code, output, seconds = run(["swift", "test", "--skip-build", "--filter", mutant["tests"]], 900, hang_env)
        finally:
            path.write_text(original)
        killed = code != 0 and ("✘" in output or code == "timeout" or "error" in output.lower())
        tests = failed_tests(output)
        verdict = "killed" if killed else "SURVIVED"
        print(f"   {verdict} in {seconds:.0f} s by: {', '.join(tests) or code}", flush=True)
        rows.append((number, mutant["name"], verdict, ", ".join(tests) or str(code)))
        if not killed:
            survivors.append(number)
    print("\n| # | mutant | verdict | failed tests |\n|---|---|---|---|")
    for number, name, verdict, tests in rows:
        print(f"| {number} | {name} | {verdict} | {tests} |")
    # Leave the build matching the sources again.
    run(["swift", "build", "--build-tests"], 1800)
    if survivors:
        print(f"error: mutants {survivors} survived", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
