#!/usr/bin/env bash
# Every example of the documentation runs as printed, and the links between its pages resolve.
# Usage: doc_examples.sh EOM SOURCE_DIR
#
# Examples (doc/correctness.md, "This documentation"): in README.md, doc/*.md and bench/README.md,
# inside fenced blocks marked ```sh, every line that starts with `eom ` (with `\` continuation
# lines) is run by bash, pipes and `&&` included, with `eom` on PATH being EOM. A trailing
# `# exit N` says the example demonstrates exit code N; otherwise it must exit 0. The examples
# after "Examples:" in `eom <subcommand> --help` run the same way, and may exit 0 or 1. Each page (and each --help)
# runs in its own scratch directory holding copies of robots/, trajectories/, tests/data/ and
# examples/, in page order, so an example may read what an earlier one on its page wrote, and
# nothing is written into the source tree.
# Options: every option of `eom <subcommand> --help` appears on doc/<subcommand>.md.
# Links: every relative [text](target) of README.md, CHANGELOG.md, doc/*.md and bench/README.md
# names an existing file, and a #fragment naming a Markdown page names one of its headings.
set -euo pipefail
eom=$(realpath "$1")
src=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/bin" "$work/copy/tests"
ln -s "$eom" "$work/bin/eom"
cp -r "$src/robots" "$src/trajectories" "$src/examples" "$work/copy/"
cp -r "$src/tests/data" "$work/copy/tests/"

EOM_DOC_WORK=$work python3 - "$src" <<'PYTHON'
import os, re, subprocess, sys

src = sys.argv[1]
work = os.environ["EOM_DOC_WORK"]
env = dict(os.environ, PATH=work + "/bin:" + os.environ["PATH"])
failures = []
count = 0


def scratch(name):
    path = os.path.join(work, "run", name)
    os.makedirs(path)
    for entry in ("robots", "trajectories", "tests", "examples"):
        os.symlink(os.path.join(work, "copy", entry), os.path.join(path, entry))
    return path


def run(where, command, cwd, allowed=(0,)):
    """Runs one example; returns a failure message or None."""
    global count
    count += 1
    marker = re.search(r"#\s*exit\s+(\d+)\s*$", command)
    allowed = (int(marker.group(1)),) if marker else allowed
    try:
        done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=300)
    except subprocess.TimeoutExpired:
        return f"{where}: timed out: {command}"
    rc = done.returncode
    # 141: a writer before `| head` was cut short by the closed pipe (SIGPIPE), not a failure
    if rc in allowed or (rc == 141 and 0 in allowed and "|" in command):
        return None
    tail = done.stderr.decode(errors="replace").strip().splitlines()[-3:]
    expected = " or ".join(str(code) for code in allowed)
    return f"{where}: exit {rc}, expected {expected}: {command}\n    " + "\n    ".join(tail)


def examples(path):
    """(line, command) of every `eom ` line in the ```sh blocks of a Markdown file."""
    found = []
    lines = open(path, encoding="utf-8").read().split("\n")
    in_sh = in_block = False
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.startswith("```"):
            in_sh = not in_block and line.strip() == "```sh"
            in_block = not in_block
        elif in_sh and line.startswith("eom "):
            start = k
            command = line
            while command.endswith("\\") and k + 1 < len(lines):
                k += 1
                command = command[:-1] + " " + lines[k].strip()
            found.append((start + 1, command))
        k += 1
    return found


pages = ["README.md"] + sorted("doc/" + f for f in os.listdir(os.path.join(src, "doc"))
                               if f.endswith(".md")) + ["bench/README.md"]
for page in pages:
    cwd = scratch(page.replace("/", "_"))
    for line, command in examples(os.path.join(src, page)):
        failure = run(f"{page}:{line}", command, cwd)
        if failure:
            failures.append(failure)

# the examples of every subcommand's --help
main_help = subprocess.run([work + "/bin/eom", "--help"], capture_output=True, text=True).stdout
subcommands = re.search(r"Subcommands: ([a-z, ]+)\.", main_help).group(1).split(", ")
for name in subcommands:
    help_text = subprocess.run([work + "/bin/eom", name, "--help"], capture_output=True,
                               text=True).stdout
    cwd = scratch("help_" + name)
    block = help_text.split("Examples:\n", 1)
    if len(block) < 2:
        failures.append(f"eom {name} --help: no Examples:")
        continue
    for entry in block[1].split("\n"):
        if entry.startswith("  eom "):
            # a help text has no room for `# exit N`: exit 1 (the work ran and found what the
            # example asks about, e.g. --fail-on-singular) passes, 2 (usage, input) does not
            failure = run(f"eom {name} --help", entry.strip(), cwd, allowed=(0, 1))
            if failure:
                failures.append(failure)


# every option of `eom <subcommand> --help` is on the subcommand's page
for name in subcommands:
    help_text = subprocess.run([work + "/bin/eom", name, "--help"], capture_output=True,
                               text=True).stdout
    options = help_text.split("Options:\n", 1)[1].split("\n\n", 1)[0]
    page = open(os.path.join(src, "doc", name + ".md"), encoding="utf-8").read()
    for option in re.findall(r"^  (?:-\w,)?(--[\w-]+)", options, flags=re.M):
        if option != "--help" and not re.search(re.escape(option) + r"(?![\w-])", page):
            failures.append(f"doc/{name}.md: eom {name} --help has {option}, the page does not")


# links between the pages
def slug(heading):
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    text = re.sub(r"```.*?```", "", open(path, encoding="utf-8").read(), flags=re.S)
    return {slug(m) for m in re.findall(r"^#+ (.*)$", text, flags=re.M)}


links = 0
for page in pages + ["CHANGELOG.md"]:
    path = os.path.join(src, page)
    text = re.sub(r"```.*?```", "", open(path, encoding="utf-8").read(), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        links += 1
        file, _, fragment = target.partition("#")
        resolved = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
        if not os.path.exists(resolved):
            failures.append(f"{page}: link to a missing file: {target}")
        elif fragment and resolved.endswith(".md") and fragment not in anchors(resolved):
            failures.append(f"{page}: link to a missing heading: {target}")

for failure in failures:
    print("FAILED: " + failure)
if failures:
    sys.exit(1)
print(f"ok: {count} examples ran as documented, {links} links resolve")
PYTHON
