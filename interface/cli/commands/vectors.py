"""`shuffle-spec vectors generate DIR` / `shuffle-spec vectors check DIR [--no-reference]` / `shuffle-spec vectors path`.

path: prints the folder of the vectors installed with the package (`interface/vectors/paths.py`), the ones to pin in
another project's CI: `shuffle-spec vectors check "$(shuffle-spec vectors path)"`.

generate: writes one JSON file of test vectors per evaluable statement plus `index.json` (schema in
`tests/vectors/SCHEMA.md`, JSON Schema `interface/vectors/schema.json`; the index is also the
manifest of what was written). It never deletes nor overwrites a file it did not write: a stale file is
removed only while the manifest lists it with its current bytes; others are left alone (named on
stderr when they look like vector files). generate also writes the audit findings' regression vectors
(`shuffle_spec.interface.vectors.findings`, from docs/audits/registry.json) into FDIR with `--findings
FDIR`, and without it into the checkout's tests/findings_vectors when DIR is the checkout's tests/vectors;
otherwise it says in one line where they come from. check: every vector file must match the JSON Schema and equal
a fresh generation (whatever its `schema` string), and the reference implementation must pass every
vector. Exit 1 when check finds a problem, 2 on a usage error (e.g. generate into a directory where a
name it writes is taken by a file that is not a vector file).
"""

from __future__ import annotations

import argparse

from ..output import print_json
from ....proofs_checks.bridge import UsageError
from ...vectors.paths import installed_vectors

NAME = "vectors"
HELP = "generate or check the versioned JSON test vectors (Wycheproof-like) of every evaluable statement"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("generate", "check", "path"), help="generate DIR, check DIR, or path (print the folder of the installed vectors)")
    parser.add_argument("directory", nargs="?", help="where the vectors are (e.g. tests/vectors); not for path")
    parser.add_argument("--no-reference", action="store_true", help="check: skip running the reference over the vectors")
    parser.add_argument("--findings", metavar="FDIR", help="generate: also write the audit findings' regression vectors (from docs/audits/registry.json of a repository checkout) into FDIR; by default they are written only beside the checkout's own tests/vectors, as tests/findings_vectors")
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    if args.action == "path":
        if args.directory is not None:
            raise UsageError("vectors path takes no directory")
        folder = installed_vectors()
        if args.json:
            print_json({"directory": str(folder)})
        else:
            print(folder)
        return 0
    if args.directory is None:
        raise UsageError(f"vectors {args.action} needs a directory (e.g. tests/vectors)")
    from ...vectors.files import check_vectors, write_vectors  # SymPy and the registry: not for `path` or --help

    if args.findings is not None and args.action != "generate":
        raise UsageError("--findings is an option of vectors generate")
    if args.action == "generate":
        from ...vectors.findings import REGISTRY_FILE, checkout_findings_directory, write_findings

        if args.findings is not None and not REGISTRY_FILE.exists():
            raise UsageError(f"vectors generate --findings {args.findings}: the audit registry is not here ({REGISTRY_FILE}); it is in a checkout of the repository")
        written = write_vectors(args.directory)
        target = args.findings if args.findings is not None else checkout_findings_directory(args.directory)
        findings = [] if target is None else write_findings(target, command="shuffle-spec vectors generate")
        if args.json:
            print_json({"directory": args.directory, "files": [p.name for p in written], "findings_directory": None if target is None else str(target), "findings_files": [p.name for p in findings]})
        else:
            print(f"wrote {len(written)} files to {args.directory}")
            if target is None:
                print("audit findings' vectors: not written here (they are generated from docs/audits/registry.json of a checkout: add --findings FDIR, or generate into the checkout's tests/vectors)")
            else:
                print(f"wrote {len(findings)} audit findings' vector files to {target} (from the audit registry)")
        return 0
    problems = check_vectors(args.directory, run_reference=not args.no_reference)
    if args.json:
        print_json({"directory": args.directory, "result": "fail" if problems else "pass", "problems": problems})
    else:
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problem(s)" if problems else "vectors ok")
    return 1 if problems else 0
