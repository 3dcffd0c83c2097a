"""Exact statements: binary_rr (filled in by its issue)."""

from __future__ import annotations

from spec.statement import Statement

STATEMENTS: tuple[Statement, ...] = ()
