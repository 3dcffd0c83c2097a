"""The registry of every statement, by stable id, and its catalog (an index that needs no SymPy).

Each paper module (`shuffle_spec.spec.papers.efmrtt19`, `shuffle_spec.spec.papers.bbgn19`, ...) defines `STATEMENTS`, a tuple of `Statement`s;
the registry is their union, with ids checked for uniqueness. Ids are a public contract: an id never
changes meaning, a correction gets a new id.

Building every statement costs seconds of SymPy, so nothing builds more than it needs:
`get_statement(id)` imports only the paper module holding `id`, found in the catalog
`spec/catalog.json`. The catalog is generated from the statements (`python3 -m shuffle_spec.spec.registry`
rewrites it) and records a digest of the spec's source files: when the sources have changed since, it
is stale and is not used (everything is then built from the sources, slower but never wrong), and
`tests/spec/test_catalog.py` fails saying to regenerate it. Adding a paper module: append it to
`PAPER_MODULES` and regenerate the catalog.

The catalog also carries what the SymPy-free evaluation path needs (`shuffle_spec.spec.catalog`):
each statement's inputs with their assumptions, and each hypothesis's short name and its two sides as
mpmath expressions (`sympy.printing.pycode.MpmathPrinter`), with SymPy deciding whatever they cannot.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from .statement import Statement

__all__ = [
    "CATALOG_FORMAT",
    "CATALOG_PATH",
    "PAPER_MODULES",
    "build_catalog",
    "catalog",
    "catalog_problems",
    "get_statement",
    "list_statements",
    "registry",
    "source_digest",
]

PAPER_MODULES: tuple[str, ...] = (
    "shuffle_spec.spec.papers.efmrtt19",
    "shuffle_spec.spec.papers.bbgn19",
    "shuffle_spec.spec.papers.fmt21",
    "shuffle_spec.spec.papers.fmt23",
    "shuffle_spec.spec.papers.efmrstt20",
    "shuffle_spec.spec.derived.exact",
    "shuffle_spec.spec.derived.compose",
    "shuffle_spec.spec.derived.blanket_exact",
    "shuffle_spec.spec.derived.blanket_randomizer",
    "shuffle_spec.spec.derived.randomizers",
)

SPEC_DIR = Path(__file__).resolve().parent
CATALOG_PATH = SPEC_DIR / "catalog.json"
CATALOG_FORMAT = "shuffle-spec-catalog/1"
REGENERATE = "python3 -m shuffle_spec.spec.registry"


@lru_cache(maxsize=1)
def registry() -> Mapping[str, Statement]:
    """Every registered statement, keyed by id, in paper-module order (builds every paper module)."""
    found: dict[str, Statement] = {}
    for module_name in PAPER_MODULES:
        module = importlib.import_module(module_name)
        for statement in module.STATEMENTS:
            if statement.id in found:
                raise ValueError(f"statement id {statement.id} is registered twice")
            found[statement.id] = statement
    return MappingProxyType(found)


_FULL_REGISTRY = registry


def registry_is_default() -> bool:
    """False while a test has replaced `registry` by statements of its own: the catalog then does not apply."""
    return globals()["registry"] is _FULL_REGISTRY


def source_digest() -> str:
    """SHA-256 over the spec's Python sources (relative path and bytes, in path order)."""
    digest = hashlib.sha256()
    for path in sorted(SPEC_DIR.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        digest.update(path.relative_to(SPEC_DIR).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=1)
def catalog() -> Mapping[str, Mapping[str, Any]] | None:
    """id -> catalog record, when `spec/catalog.json` exists and matches the sources; None otherwise."""
    try:
        document = json.loads(CATALOG_PATH.read_text())
    except (OSError, ValueError):
        return None
    if document.get("format") != CATALOG_FORMAT or document.get("source_digest") != source_digest():
        return None
    if document.get("modules") != list(PAPER_MODULES):
        return None
    return MappingProxyType({record["id"]: record for record in document["statements"]})


def get_statement(statement_id: str) -> Statement:
    """The statement with this id (building only its paper module); `KeyError` listing near matches otherwise."""
    if registry_is_default() and registry.cache_info().currsize == 0:
        index = catalog()
        if index is not None:
            record = index.get(statement_id)
            if record is not None:
                module = importlib.import_module(record["module"])
                for statement in module.STATEMENTS:
                    if statement.id == statement_id:
                        return statement
            else:
                raise KeyError(_unknown(statement_id, index))
    statements = registry()
    try:
        return statements[statement_id]
    except KeyError:
        raise KeyError(_unknown(statement_id, statements)) from None


def _unknown(statement_id: str, known: Mapping[str, object]) -> str:
    near = [s for s in known if s.lower().startswith(statement_id.split(".")[0].lower())]
    hint = f"; ids of that paper: {', '.join(near)}" if near else ""
    return f"no statement with id {statement_id!r}{hint}"


def list_statements() -> tuple[Statement, ...]:
    return tuple(registry().values())


# --- the catalog's generation (SymPy) ---------------------------------------------------------------


def _compiled_side(expr: Any, names: list[str]) -> str | None:
    """`expr` as an mpmath expression in the arguments `a0, a1, ...` (the inputs `names`), or None when it
    cannot be evaluated faithfully in floating point (floor, ceiling: a rounding error flips them)."""
    import sympy as sp
    from sympy.printing.pycode import MpmathPrinter

    if expr.has(sp.floor, sp.ceiling, sp.Integral, sp.Sum, sp.Product):
        return None
    by_name = {str(s): s for s in expr.free_symbols}
    if set(by_name) - set(names):
        return None
    renamed = expr.xreplace({by_name[name]: sp.Symbol(f"a{i}") for i, name in enumerate(names) if name in by_name})
    code = MpmathPrinter({"fully_qualified_modules": True}).doprint(renamed)
    return None if "Not supported" in code or "\n" in code else code


def _exact_side(expr: Any, names: list[str]) -> str | None:
    """`expr` as Python arithmetic on Fractions in `a0, a1, ...`, when it is a rational function of the
    inputs with rational coefficients (then a tie such as k >= 2 at k = 2 is decided exactly)."""
    import sympy as sp
    from sympy.printing.pycode import PythonCodePrinter

    class _FractionPrinter(PythonCodePrinter):
        def _print_Rational(self, e: Any) -> str:
            return f"Fraction({e.p}, {e.q})"

        def _print_Integer(self, e: Any) -> str:
            return f"Fraction({e.p})"

        def _print_Pow(self, e: Any, rational: bool = False) -> str:
            return f"({self._print(e.base)})**({int(e.exp)})"

    by_name = {str(s): s for s in expr.free_symbols}
    if set(by_name) - set(names) or expr.atoms(sp.Function) or expr.atoms(sp.NumberSymbol, sp.Float):
        return None
    if any(not p.exp.is_Integer for p in expr.atoms(sp.Pow)):
        return None
    renamed = expr.xreplace({by_name[name]: sp.Symbol(f"a{i}") for i, name in enumerate(names) if name in by_name})
    code = _FractionPrinter().doprint(renamed)
    return None if "Not supported" in code or "\n" in code else code


def _hypothesis_record(statement: Statement, hypothesis: Any) -> dict[str, Any]:
    import sympy as sp

    names = list(statement.input_names)
    record: dict[str, Any] = {"name": statement.hypothesis_name(hypothesis), "op": None, "lhs": None, "rhs": None}
    ops = {sp.StrictLessThan: "<", sp.LessThan: "<=", sp.StrictGreaterThan: ">", sp.GreaterThan: ">="}
    op = ops.get(type(hypothesis))
    if not {str(x) for x in hypothesis.free_symbols} <= set(names):
        # It speaks of a symbol that is not an input: substituting the inputs leaves it open, so
        # `Statement.failed_hypotheses` never lists it; neither does the SymPy-free path.
        record["op"] = "open"
    elif op is not None:
        lhs, rhs = _compiled_side(hypothesis.lhs, names), _compiled_side(hypothesis.rhs, names)
        if lhs is not None and rhs is not None:
            record.update(op=op, lhs=lhs, rhs=rhs)
        exact_lhs, exact_rhs = _exact_side(hypothesis.lhs, names), _exact_side(hypothesis.rhs, names)
        if exact_lhs is not None and exact_rhs is not None:
            record.update(op=op, exact=[exact_lhs, exact_rhs])
    else:
        for index, symbol in enumerate(statement.inputs):
            # "x is a power of 2" (EFMRTT19's tree counter): decided exactly on integers, no floor in floats.
            if symbol.is_integer and hypothesis == sp.Eq(2 ** sp.floor(sp.log(symbol) / sp.log(2)), symbol):
                record.update(op="power_of_two", lhs=f"a{index}")
    return record


def _statement_record(module_name: str, statement: Statement) -> dict[str, Any]:
    source = statement.source
    return {
        "id": statement.id,
        "module": module_name,
        "kind": statement.kind.value,
        "title": statement.title,
        "source": {"paper": source.paper, "locator": source.locator, "version": source.version, "confidence": source.confidence},
        "direction": statement.direction.value,
        "reference": statement.reference,
        "inputs": [
            {"name": str(s), "integer": bool(s.is_integer), "positive": bool(s.is_positive), "nonnegative": bool(s.is_nonnegative)}
            for s in statement.inputs
        ],
        "output": None if statement.output is None else str(statement.output),
        "mechanism": statement.mechanism,
        "tags": sorted(statement.tags),
        "rtol": statement.rtol,
        "has_value": statement.value is not None,
        "hypotheses": [_hypothesis_record(statement, h) for h in statement.hypotheses] if statement.inputs else [],
        "effective_delta": None if statement.effective_delta is None else statement.effective_delta.to_json(),
    }


def build_catalog() -> dict[str, Any]:
    """The catalog document of the current sources (builds every statement)."""
    records = []
    for module_name in PAPER_MODULES:
        module = importlib.import_module(module_name)
        records += [_statement_record(module_name, s) for s in module.STATEMENTS]
    return {
        "format": CATALOG_FORMAT,
        "note": f"Generated by `{REGENERATE}`; do not edit. Used only while source_digest matches spec/.",
        "modules": list(PAPER_MODULES),
        "source_digest": source_digest(),
        "statements": records,
    }


def catalog_text(document: Mapping[str, Any]) -> str:
    """The catalog's canonical text: one statement per line, so that a merge touches only the lines of
    the statements that changed (plus `source_digest`: resolve a conflict by regenerating)."""
    head = {k: v for k, v in document.items() if k != "statements"}
    lines = [json.dumps(head, ensure_ascii=True)[:-1] + ', "statements": [']
    records = [json.dumps(record, ensure_ascii=True, separators=(",", ":")) for record in document["statements"]]
    lines += [f"{record}," for record in records[:-1]] + records[-1:]
    return "\n".join(lines) + "\n]}\n"


def catalog_problems() -> list[str]:
    """Why `spec/catalog.json` is not the catalog of the current sources (empty when it is)."""
    fresh = catalog_text(build_catalog())
    try:
        committed = CATALOG_PATH.read_text()
    except OSError:
        return [f"{CATALOG_PATH.name} is missing: regenerate it with `{REGENERATE}`"]
    if committed != fresh:
        return [f"{CATALOG_PATH.name} is stale (the spec's sources or PAPER_MODULES changed): regenerate it with `{REGENERATE}`"]
    return []


if __name__ == "__main__":
    CATALOG_PATH.write_text(catalog_text(build_catalog()))
    print(f"wrote {CATALOG_PATH}")
