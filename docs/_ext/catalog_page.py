"""The `statement-catalog` directive: the table of every registered statement, read from `spec/catalog.json`.

The catalog is generated from the registry (`python3 -m shuffle_spec.spec.registry`) and shipped with the
package; this directive turns it into tables at build time (nothing generated is committed). One table per
direction, upper bounds first (what is safe to rely on comes first), then exact values, lower bounds and
definitions. Columns: id, title, mechanism, source (paper, locator, version), range (the inputs' domains and
the statement's hypotheses, as the registry states them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

import shuffle_spec

CATALOG = Path(shuffle_spec.__file__).resolve().parent / "spec" / "catalog.json"

# (direction as the catalog spells it, section title): the order of the page.
DIRECTIONS = [
    ("upper_bound", "Upper bounds on the central epsilon (or delta): safe to rely on"),
    ("exact", "Exact values (certified enclosures of the truth; some for one mechanism only)"),
    ("lower_bound", "Lower bounds: what no correct analysis can go below; never a guarantee"),
    ("definition", "Definitions and procedures without a numeric value"),
]


def _domain(spec: dict[str, Any]) -> str:
    if spec["integer"]:
        return f"{spec['name']} integer >= 1" if spec["positive"] else f"{spec['name']} integer >= 0"
    if spec["positive"]:
        return f"{spec['name']} > 0"
    return f"{spec['name']} >= 0" if spec["nonnegative"] else f"{spec['name']} real"


def range_text(statement: dict[str, Any]) -> str:
    """The inputs' domains, then the hypotheses by their names: the range in which the statement holds."""
    parts = [_domain(spec) for spec in statement["inputs"]]
    parts += [hypothesis["name"] for hypothesis in statement["hypotheses"]]
    return "; ".join(parts) if parts else "-"


def source_text(statement: dict[str, Any]) -> str:
    source = statement["source"]
    return f"{source['paper']}, {source['locator']} ({source['version']}; confidence {source['confidence']})"


def _row(cells: list[nodes.Node]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += cell if isinstance(cell, nodes.paragraph) else nodes.paragraph("", "", cell)
        row += entry
    return row


def _table(statements: list[dict[str, Any]]) -> nodes.table:
    headers = ["id", "title", "mechanism", "source", "range"]
    widths = [18, 30, 9, 23, 20]
    table = nodes.table(classes=["statement-catalog"])
    group = nodes.tgroup(cols=len(headers))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head += _row([nodes.Text(h) for h in headers])
    group += head
    body = nodes.tbody()
    for statement in statements:
        body += _row(
            [
                nodes.literal(statement["id"], statement["id"]),
                nodes.Text(statement["title"]),
                nodes.Text(statement["mechanism"] or "-"),
                nodes.Text(source_text(statement)),
                nodes.Text(range_text(statement)),
            ]
        )
    group += body
    return table


class StatementCatalog(SphinxDirective):
    """One section per direction, each a table of its statements in registry order."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(str(CATALOG))
        catalog = json.loads(CATALOG.read_text(encoding="utf-8"))
        statements = catalog["statements"]
        known = {direction for direction, _ in DIRECTIONS}
        unknown = sorted({s["direction"] for s in statements} - known)
        if unknown:  # a new direction must get a section and a place in the order, not vanish from the page
            raise self.error(f"statement-catalog: direction(s) {unknown} have no section in docs/_ext/catalog_page.py")
        result: list[nodes.Node] = [
            nodes.paragraph("", f"{len(statements)} statements (catalog format {catalog['format']}).")
        ]
        for direction, title in DIRECTIONS:
            chosen = [s for s in statements if s["direction"] == direction]
            section = nodes.section(ids=[f"direction-{direction.replace('_', '-')}"])
            section += nodes.title("", f"{title} ({len(chosen)})")
            section += _table(chosen)
            result.append(section)
        return result


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("statement-catalog", StatementCatalog)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
